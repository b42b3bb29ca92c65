import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Which exchanges to refuse: by method, API path (without the /public/v1 prefix) and body text. */
export type RefuseRule = (exchange: { method: string; path: string; body: string }) => boolean;

export interface Refusal {
  status: number;
  code: string;
  /** The error's message, as the service words it; a fixed text by default. */
  message?: string | string[];
  /** Answer with this text (as text/html) instead of an Error envelope, as a gateway in front of the service may. */
  bare?: string;
}

/**
 * An HTTP proxy in front of the emulator that forwards everything, except that exchanges matching
 * a rule are answered by the proxy itself with an Error envelope (or dropped without an answer,
 * `drop`), and never reach the emulator.
 * A test can thus make the service refuse exactly one kind of call (a 4xx or a 5xx) at will, or
 * act (`before`) just as a given call arrives.
 */
export class RefusingProxy {
  private readonly server: Server;
  private rules: { rule: RefuseRule; refusal: Refusal }[] = [];
  private hooks: { rule: RefuseRule; hook: () => Promise<void> }[] = [];
  private readonly drops: RefuseRule[] = [];
  /** Exchanges answered by the proxy, as `METHOD path`. */
  readonly refused: string[] = [];
  baseUrl = '';

  private constructor(private readonly upstreamOrigin: string, private readonly prefix: string) {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  static async start(upstreamBaseUrl: string): Promise<RefusingProxy> {
    const url = new URL(upstreamBaseUrl);
    const proxy = new RefusingProxy(url.origin, url.pathname);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.server.address() as AddressInfo;
    proxy.baseUrl = `http://127.0.0.1:${port}${url.pathname}`;
    return proxy;
  }

  /** Answers every later exchange matching `rule` with `refusal`. */
  refuse(rule: RefuseRule, refusal: Refusal): void {
    this.rules.push({ rule, refusal });
  }

  /** Closes the connection of every later exchange matching `rule` without an answer, as a service that is gone. */
  drop(rule: RefuseRule): void {
    this.drops.push(rule);
  }

  /** Runs `hook` before forwarding each later exchange matching `rule` (to act at that exact moment). */
  before(rule: RefuseRule, hook: () => Promise<void>): void {
    this.hooks.push({ rule, hook });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const method = req.method ?? 'GET';
    const path = (req.url ?? '').split('?')[0]!.replace(this.prefix, '');
    if (this.drops.some((rule) => rule({ method, path, body: body.toString('utf8') }))) {
      res.destroy();
      return;
    }
    const match = this.rules.find(({ rule }) => rule({ method, path, body: body.toString('utf8') }));
    if (match) {
      this.refused.push(`${method} ${path}`);
      if (match.refusal.bare !== undefined) {
        res.writeHead(match.refusal.status, { 'content-type': 'text/html' });
        res.end(match.refusal.bare);
        return;
      }
      res.writeHead(match.refusal.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: match.refusal.code, message: match.refusal.message ?? 'refused by the test proxy' }, meta: { requestId: 'proxy' } }));
      return;
    }
    for (const { rule, hook } of this.hooks) if (rule({ method, path, body: body.toString('utf8') })) await hook();
    const upstream = request(`${this.upstreamOrigin}${req.url}`, { method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
