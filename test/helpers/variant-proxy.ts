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
  /** The JSON body of a write as the service keeps it (its tidying), before the emulator sees it; may change its argument in place. */
  request?(exchange: VariantExchange, body: unknown): unknown;
  /** For this long after a write of a post, `GET /posts/{id}` answers 404 and listings leave the post out (a read that lags). */
  readLagMs?: number;
  /** A PATCH of a post that succeeds is answered with this status and no body (a gateway that only says it accepted the write). */
  patchAnswer?: 202 | 204;
}

/**
 * An HTTP proxy in front of the emulator that forwards every request unchanged and answers with
 * the emulator's answer rewritten by a variant (only 2xx JSON success envelopes; errors and
 * non-JSON answers pass as they are). The variant can be switched between runs.
 */
export class VariantProxy {
  private readonly server: Server;
  /** Post id → when the proxy last saw it written (for `readLagMs`). */
  private readonly written = new Map<string, number>();
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
    const lagging = /^\/posts\/[^/]+$/.test(exchange.path) && exchange.method === 'GET' && this.lagging(exchange.path.slice('/posts/'.length));
    if (lagging) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'not_found', message: 'Post not found' }, meta: { requestId: 'lagging-read' } }));
      return;
    }
    const body = this.requestBody(exchange, Buffer.concat(chunks));
    const headers = { ...req.headers };
    if (body.length !== Buffer.concat(chunks).length) headers['content-length'] = String(body.length);
    const upstream = request(`${this.upstreamOrigin}${req.url}`, { method: exchange.method, headers }, async (answer) => {
      const parts: Buffer[] = [];
      for await (const chunk of answer) parts.push(chunk as Buffer);
      const text = Buffer.concat(parts).toString('utf8');
      const status = answer.statusCode ?? 502;
      const headers = { ...answer.headers };
      delete headers['content-length'];
      delete headers['transfer-encoding'];
      if (this.variant.patchAnswer !== undefined && exchange.method === 'PATCH' && exchange.path.startsWith('/posts/') && status === 200) {
        this.rewritten(exchange, text);
        delete headers['content-type'];
        res.writeHead(this.variant.patchAnswer, headers);
        res.end();
        return;
      }
      res.writeHead(status, headers);
      res.end(status >= 200 && status < 300 ? this.rewritten(exchange, text) : text);
    });
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  }

  /** Whether a read of this post still lags its last write. */
  private lagging(id: string): boolean {
    const at = this.written.get(id);
    return at !== undefined && this.variant.readLagMs !== undefined && Date.now() - at < this.variant.readLagMs;
  }

  /** Resolves once no read lags a write any more. */
  async settled(): Promise<void> {
    const last = Math.max(0, ...this.written.values());
    const wait = last + (this.variant.readLagMs ?? 0) - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait + 50));
  }

  /** A write's JSON body as the variant keeps it. */
  private requestBody(exchange: VariantExchange, body: Buffer): Buffer {
    const write = exchange.method === 'POST' || exchange.method === 'PATCH';
    if (!write || !this.variant.request || !(exchange.path === '/posts' || exchange.path.startsWith('/posts/'))) return body;
    try {
      return Buffer.from(JSON.stringify(this.variant.request(exchange, JSON.parse(body.toString('utf8')))));
    } catch {
      return body;
    }
  }

  private rewritten(exchange: VariantExchange, text: string): string {
    let envelope: { data?: unknown };
    try {
      envelope = JSON.parse(text) as { data?: unknown };
    } catch {
      return text;
    }
    if (typeof envelope !== 'object' || envelope === null || !('data' in envelope)) return text;
    const data = envelope.data as { id?: unknown; items?: { id?: unknown }[] } | null;
    if ((exchange.method === 'POST' && exchange.path === '/posts') || (exchange.method === 'PATCH' && exchange.path.startsWith('/posts/'))) {
      if (typeof data?.id === 'string') this.written.set(data.id, Date.now());
    }
    if (exchange.method === 'GET' && exchange.path === '/posts' && Array.isArray(data?.items)) {
      data.items = data.items.filter((item) => typeof item.id !== 'string' || !this.lagging(item.id));
    }
    return JSON.stringify({ ...envelope, data: this.variant.rewrite(exchange, data) });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
