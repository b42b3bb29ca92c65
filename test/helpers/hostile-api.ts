import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the hostile API received. */
export interface SeenRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  authorized: boolean;
}

/** Takes a request over (returns true) or lets it be forwarded (returns false). */
export type Misbehaviour = (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;

export interface HostileOptions {
  misbehave?: Misbehaviour;
  rewriteJson?: (data: unknown, url: URL) => unknown;
  /** Changes a forwarded JSON answer's text, after `rewriteJson` (for what JSON.stringify cannot write, e.g. nesting past its stack). */
  rewriteText?: (text: string, url: URL) => string;
}

/**
 * A hostile Public Posting API on port 0, in front of a real emulator: every request is forwarded,
 * so `/auth/session` and the rest answer as the emulator does (the emulator's origin rewritten to
 * this server's, so media urls lead back here), until a misbehaviour of the test takes it over.
 * `rewriteJson` may change a forwarded JSON answer (add a field the emulator never sends); it is
 * given the request's URL too.
 * Every request is recorded with whether it carried an Authorization header.
 */
export class HostileApi {
  readonly seen: SeenRequest[] = [];
  readonly #server: Server;
  readonly #upstreamOrigin: string;
  readonly #misbehave: Misbehaviour;
  readonly #rewriteJson: (data: unknown, url: URL) => unknown;
  readonly #rewriteText: (text: string, url: URL) => string;
  origin = '';
  baseUrl = '';

  private constructor(upstreamBaseUrl: string, options: HostileOptions) {
    this.#upstreamOrigin = new URL(upstreamBaseUrl).origin;
    this.#misbehave = options.misbehave ?? (() => false);
    this.#rewriteJson = options.rewriteJson ?? ((data) => data);
    this.#rewriteText = options.rewriteText ?? ((text) => text);
    this.#server = createServer((req, res) => this.#handle(req, res));
  }

  static async start(upstreamBaseUrl: string, options: HostileOptions = {}): Promise<HostileApi> {
    const api = new HostileApi(upstreamBaseUrl, options);
    await new Promise<void>((resolve) => api.#server.listen(0, '127.0.0.1', resolve));
    const { port } = api.#server.address() as AddressInfo;
    api.origin = `http://127.0.0.1:${port}`;
    api.baseUrl = `${api.origin}${new URL(upstreamBaseUrl).pathname}`;
    return api;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    this.seen.push({ method: req.method ?? '', url: req.url ?? '', authorized: req.headers.authorization !== undefined });
    const url = new URL(req.url ?? '/', this.origin);
    if (this.#misbehave(req, res, url)) return;
    const upstream = request(`${this.#upstreamOrigin}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(this.#upstreamOrigin).host } }, (answer) => {
      if (!String(answer.headers['content-type'] ?? '').includes('application/json')) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8').split(this.#upstreamOrigin).join(this.origin);
        const body = text === '' ? '' : this.#rewriteText(JSON.stringify(this.#rewriteJson(JSON.parse(text), url)), url);
        const { 'content-length': _, ...headers } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  }
}

/**
 * Writes `head`, then `chunk` again and again (honouring back-pressure) until `limitBytes` of it were
 * sent or the client went away, then `tail`; resolves with the bytes of `chunk` sent and whether
 * the client cut the answer short.
 */
export function streamRepeated(res: ServerResponse, options: { head?: string; chunk: Buffer; limitBytes: number; tail?: string }): Promise<{ sentBytes: number; cut: boolean }> {
  const { chunk, limitBytes } = options;
  return new Promise((resolve) => {
    let sentBytes = 0;
    let ended = false;
    res.on('close', () => resolve({ sentBytes, cut: !ended }));
    if (options.head !== undefined) res.write(options.head);
    const pump = (): void => {
      while (!res.destroyed && sentBytes < limitBytes) {
        const piece = chunk.subarray(0, Math.min(chunk.length, limitBytes - sentBytes));
        sentBytes += piece.length;
        if (!res.write(piece)) {
          res.once('drain', pump);
          return;
        }
      }
      if (res.destroyed) return;
      ended = true;
      res.end(options.tail ?? '');
    };
    pump();
  });
}
