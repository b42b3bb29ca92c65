import { Readable } from 'node:stream';
import type { Agent } from 'undici';
import { undici } from './undici-parts.js';

/** One HTTP exchange as the retry loop sees it: the whole body is read, up to `SendBounds.maxBodyBytes`. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  url: URL;
  headers: Record<string, string>;
  /** A string, or a factory so that every attempt streams the bytes afresh (from disk). */
  body?: string | (() => AsyncIterable<Uint8Array>);
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
}

export interface TransportTimeouts {
  /** Time allowed to connect. */
  connectMs: number;
  /** Time allowed for the response headers (after the request was sent) and between body chunks. */
  responseMs: number;
}

/** A keep-alive agent; one per client, closed by `ApiClient.close()`. */
export function createAgent(timeouts: TransportTimeouts): Agent {
  return new undici.Agent({
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
    // Enough sockets for bounded part uploads plus API calls; the pacer bounds the API rate anyway.
    connections: 32,
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.responseMs,
    bodyTimeout: timeouts.responseMs,
  });
}

/**
 * What one exchange may cost, whatever the remote sends: the bytes of its answer's body, and
 * (when set) the time from sending to the last byte of the answer, headers and body.
 */
export interface SendBounds {
  maxBodyBytes: number;
  deadlineMs?: number;
}

/** A bound of `SendBounds` was passed; the exchange turns it into a typed error naming the call. */
export class BoundPassed extends Error {
  constructor(readonly bound: { kind: 'body'; maxBytes: number } | { kind: 'deadline'; ms: number }) {
    super(bound.kind === 'body' ? `answer body over ${bound.maxBytes} bytes` : `no complete answer within ${bound.ms} ms`);
  }
}

export async function send(agent: Agent, req: HttpRequest, bounds: SendBounds): Promise<HttpResponse> {
  const deadline = bounds.deadlineMs === undefined ? undefined : new AbortController();
  const timer = deadline === undefined ? undefined : setTimeout(() => deadline.abort(), bounds.deadlineMs);
  const signals = [req.signal, deadline?.signal].filter((signal) => signal !== undefined);
  try {
    const body = typeof req.body === 'function' ? Readable.from(req.body(), { objectMode: false }) : req.body;
    const response = await undici.request(agent, {
      origin: req.url.origin,
      path: `${req.url.pathname}${req.url.search}`,
      method: req.method,
      headers: req.headers,
      body,
      signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
    });
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const text = await boundedText(response.body, { declaredBytes: Number(headers['content-length']), maxBytes: bounds.maxBodyBytes });
    return { status: response.statusCode, headers, text };
  } catch (error) {
    // The caller's own abort stays an abort; only the deadline becomes a bound.
    if (deadline?.signal.aborted === true && req.signal?.aborted !== true) throw new BoundPassed({ kind: 'deadline', ms: bounds.deadlineMs! });
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The body as text, read only while it stays within `maxBytes` (declared or as it arrives). */
async function boundedText(body: Readable, limits: { declaredBytes: number; maxBytes: number }): Promise<string> {
  const over = (): BoundPassed => {
    body.destroy();
    return new BoundPassed({ kind: 'body', maxBytes: limits.maxBytes });
  };
  if (limits.declaredBytes > limits.maxBytes) throw over();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limits.maxBytes) throw over();
    chunks.push(chunk);
  }
  // As undici's own text(): UTF-8, a byte order mark dropped.
  return new TextDecoder().decode(Buffer.concat(chunks, size));
}

/** Codes of failures where the connection never carried the request: safe to retry any call. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Transient transport failures worth retrying; the request may or may not have reached the server. */
const TRANSIENT_CODES = new Set([
  ...NOT_SENT_CODES,
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** A transport failure, described without the request's headers or options. */
export interface TransportFailure {
  code: string;
  detail: string;
  /** The request surely never reached the server. */
  notSent: boolean;
  /** Worth another attempt (if the call's retry mode allows it). */
  transient: boolean;
}

/**
 * Describes a thrown transport error, or returns undefined when it is not one (an abort, a bug, a
 * file that cannot be read): those propagate unchanged.
 */
export function transportFailure(error: unknown): TransportFailure | undefined {
  const code = errorCode(error) ?? errorCode((error as { cause?: unknown } | undefined)?.cause);
  if (code === undefined || !(TRANSIENT_CODES.has(code) || code === 'ENOTFOUND')) return undefined;
  const detail = error instanceof Error ? error.message : String(error);
  return { code, detail, notSent: NOT_SENT_CODES.has(code) || code === 'ENOTFOUND', transient: TRANSIENT_CODES.has(code) };
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
