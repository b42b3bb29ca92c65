import { Readable } from 'node:stream';
import type { Agent } from 'undici';
import { undici } from './undici-parts.js';

/** One HTTP exchange as the retry loop sees it: the whole body is read (API bodies are small JSON). */
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

export async function send(agent: Agent, req: HttpRequest): Promise<HttpResponse> {
  const body = typeof req.body === 'function' ? Readable.from(req.body(), { objectMode: false }) : req.body;
  const response = await undici.request(agent, {
    origin: req.url.origin,
    path: `${req.url.pathname}${req.url.search}`,
    method: req.method,
    headers: req.headers,
    body,
    signal: req.signal,
  });
  const text = await response.body.text();
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { status: response.statusCode, headers, text };
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
