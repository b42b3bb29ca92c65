import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ErrorCodes } from '../../api/error-codes.js';
import { requestUrl } from '../../local-server/guard.js';
import type { Fault } from './chaos.js';
import { ApiError, errorBody, type Reply } from '../protocol/envelope.js';
import type { RequestLogEntry } from './request-log.js';

/**
 * One HTTP request/response pair. Every answer goes through here, so every response carries
 * `X-Request-Id` (equal to `meta.requestId`) and `Cache-Control: no-store`, is logged with its
 * status, and honours a chaos `reset-after` fault (processed fully, then the connection dropped).
 */
export class Exchange {
  readonly requestId = randomUUID();
  readonly url: URL;
  /** Set for API and storage requests (not for control requests, which are not logged). */
  entry?: RequestLogEntry;
  fault?: Fault;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
  ) {
    // A malformed address reads as `/` here: the listener answers it with 400 before any route.
    this.url = requestUrl(req) ?? new URL('http://emulator.invalid/');
    res.setHeader('X-Request-Id', this.requestId);
    res.setHeader('Cache-Control', 'no-store');
  }

  get method(): string {
    return this.req.method ?? 'GET';
  }

  get path(): string {
    return this.url.pathname;
  }

  /** Closes the connection without an answer (chaos `reset`/`reset-after`). */
  drop(): void {
    this.req.socket.destroy();
  }

  json(status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (this.entry) this.entry.status = status;
    if (this.fault?.kind === 'reset-after') return this.drop();
    if (this.res.headersSent || this.res.destroyed) return;
    const text = JSON.stringify(body);
    this.res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
    this.res.end(text);
  }

  reply(reply: Reply): void {
    this.json(reply.status, { data: reply.data, meta: { requestId: this.requestId } }, reply.headers);
  }

  /** An empty answer with headers only (storage PUT: the ETag). */
  empty(status: number, headers: Record<string, string> = {}): void {
    if (this.entry) this.entry.status = status;
    if (this.fault?.kind === 'reset-after') return this.drop();
    this.res.writeHead(status, { ...headers, 'Content-Length': '0' });
    this.res.end();
  }

  async stream(status: number, headers: Record<string, string>, body: Readable): Promise<void> {
    if (this.entry) this.entry.status = status;
    if (this.fault?.kind === 'reset-after') {
      body.destroy();
      return this.drop();
    }
    this.res.writeHead(status, headers);
    await pipeline(body, this.res).catch(() => this.res.destroy());
  }

  error(error: unknown): void {
    const apiError =
      error instanceof ApiError
        ? error
        : new ApiError(500, ErrorCodes.internalError, `internal error: ${error instanceof Error ? error.message : String(error)}`);
    this.json(apiError.status, errorBody(apiError, this.requestId), apiError.headers);
  }
}
