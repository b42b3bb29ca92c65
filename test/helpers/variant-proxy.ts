import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One exchange as the proxy saw it: API path without the /public/v1 prefix, query parameters. */
export interface VariantExchange {
  method: string;
  path: string;
  query: URLSearchParams;
}

/**
 * A way the real service may answer where the spec says "not shown": a rewrite of the `data` of
 * each success answer (returns the new `data`). The rewrite may change its argument in place.
 */
export interface Variant {
  name: string;
  rewrite(exchange: VariantExchange, data: unknown): unknown;
}

/**
 * An HTTP proxy in front of the emulator that forwards every request unchanged and answers with
 * the emulator's answer rewritten by a variant (only 2xx JSON success envelopes; errors and
 * non-JSON answers pass as they are). The variant can be switched between runs.
 */
export class VariantProxy {
  private readonly server: Server;
  baseUrl = '';

  private constructor(private readonly upstreamOrigin: string, private readonly prefix: string, public variant: Variant) {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  static async start(upstreamBaseUrl: string, variant: Variant): Promise<VariantProxy> {
    const url = new URL(upstreamBaseUrl);
    const proxy = new VariantProxy(url.origin, url.pathname, variant);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.server.address() as AddressInfo;
    proxy.baseUrl = `http://127.0.0.1:${port}${url.pathname}`;
    return proxy;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', this.upstreamOrigin);
    const exchange = { method: req.method ?? 'GET', path: url.pathname.replace(this.prefix, ''), query: url.searchParams };
    const upstream = request(`${this.upstreamOrigin}${req.url}`, { method: exchange.method, headers: req.headers }, async (answer) => {
      const parts: Buffer[] = [];
      for await (const chunk of answer) parts.push(chunk as Buffer);
      const text = Buffer.concat(parts).toString('utf8');
      const status = answer.statusCode ?? 502;
      const headers = { ...answer.headers };
      delete headers['content-length'];
      delete headers['transfer-encoding'];
      res.writeHead(status, headers);
      res.end(status >= 200 && status < 300 ? this.rewritten(exchange, text) : text);
    });
    upstream.on('error', () => res.destroy());
    upstream.end(Buffer.concat(chunks));
  }

  private rewritten(exchange: VariantExchange, text: string): string {
    let envelope: { data?: unknown };
    try {
      envelope = JSON.parse(text) as { data?: unknown };
    } catch {
      return text;
    }
    if (typeof envelope !== 'object' || envelope === null || !('data' in envelope)) return text;
    return JSON.stringify({ ...envelope, data: this.variant.rewrite(exchange, envelope.data) });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
