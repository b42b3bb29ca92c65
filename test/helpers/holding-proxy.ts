import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeldExchange {
  method: string;
  path: string;
  /** The upstream answer that was withheld from the client. */
  status: number;
}

/**
 * An HTTP proxy in front of the emulator that forwards everything, except that the first
 * exchange matching `hold` is completed upstream and its answer is then withheld from the client
 * forever. A test can thus kill a client at an exact point: after the service acted, before the
 * client heard about it.
 */
export class HoldingProxy {
  private server: Server;
  private holdRule: ((method: string, path: string) => boolean) | null = null;
  private heldResolve: ((held: HeldExchange) => void) | null = null;
  private readonly pending = new Set<ServerResponse>();
  baseUrl = '';

  private constructor(private readonly upstreamOrigin: string) {
    this.server = createServer((req, res) => this.forward(req, res));
  }

  static async start(upstreamBaseUrl: string): Promise<HoldingProxy> {
    const url = new URL(upstreamBaseUrl);
    const proxy = new HoldingProxy(url.origin);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.server.address() as AddressInfo;
    proxy.baseUrl = `http://127.0.0.1:${port}${url.pathname}`;
    return proxy;
  }

  /** Withholds the answer of the next matching exchange; resolves once the upstream answered it. */
  holdNext(rule: (method: string, path: string) => boolean): Promise<HeldExchange> {
    this.holdRule = rule;
    return new Promise((resolve) => (this.heldResolve = resolve));
  }

  /** Disarms a hold that never matched (the client finished first). */
  cancelHold(): void {
    this.holdRule = null;
    this.heldResolve = null;
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const upstream = request(`${this.upstreamOrigin}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      const path = (req.url ?? '').split('?')[0]!;
      if (this.holdRule?.(req.method ?? '', path)) {
        this.holdRule = null;
        answer.resume();
        this.pending.add(res);
        answer.on('end', () => this.heldResolve?.({ method: req.method ?? '', path, status: answer.statusCode ?? 0 }));
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  }

  async close(): Promise<void> {
    for (const res of this.pending) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
