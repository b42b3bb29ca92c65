import { randomUUID } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Says why a request is refused (the messages of a 400 `validation_failed`), or null to forward it. */
export type RefusalRule = (request: { method: string; path: string; body: unknown }) => string[] | null;

/**
 * An HTTP proxy in front of the emulator that forwards everything, except the requests `refuse`
 * names, which it answers itself with a 400 `validation_failed` in the API's error envelope, as
 * a service stricter than the emulator would (e.g. one that checks publishing rules on drafts).
 * `refused` lists what it refused.
 */
export class RefusingProxy {
  private readonly server: Server;
  readonly refused: { method: string; path: string; messages: string[] }[] = [];
  baseUrl = '';

  private constructor(
    private readonly upstreamOrigin: string,
    private readonly refuse: RefusalRule,
  ) {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  static async start(upstreamBaseUrl: string, refuse: RefusalRule): Promise<RefusingProxy> {
    const url = new URL(upstreamBaseUrl);
    const proxy = new RefusingProxy(url.origin, refuse);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.server.address() as AddressInfo;
    proxy.baseUrl = `http://127.0.0.1:${port}${url.pathname}`;
    return proxy;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const method = req.method ?? 'GET';
    const path = (req.url ?? '').split('?')[0]!;
    const messages = this.refuse({ method, path, body: parseJson(raw) });
    if (messages !== null) {
      this.refused.push({ method, path, messages });
      const requestId = randomUUID();
      res.writeHead(400, { 'Content-Type': 'application/json', 'X-Request-Id': requestId, 'Cache-Control': 'no-store' });
      res.end(JSON.stringify({ error: { code: 'validation_failed', message: messages }, meta: { requestId } }));
      return;
    }
    const upstream = request(`${this.upstreamOrigin}${req.url}`, { method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    upstream.end(raw);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
