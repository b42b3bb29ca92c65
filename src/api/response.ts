import { PostsyncError } from '../errors.js';
import { ErrorCodes } from './error-codes.js';
import type { HttpResponse } from './transport.js';

/** The error fields read from a non-2xx answer, with or without an error envelope. */
export interface ErrorFields {
  status: number;
  code: string;
  messages: string[];
  requestId?: string;
  retryAfterSeconds?: number;
}

const BARE_BODY_EXCERPT = 300;

export function requestIdOf(response: HttpResponse): string | undefined {
  return response.headers['x-request-id'] || undefined;
}

/**
 * Reads the error envelope; a 413 (or a proxy's 502 page) may come without one, as plain text or
 * an empty body, which gets the code `payload_too_large` (413) or `http_<status>`.
 */
export function errorFields(response: HttpResponse, redact: (text: string) => string): ErrorFields {
  const parsed = parseJson(response.text) as { error?: { code?: unknown; message?: unknown }; meta?: { requestId?: unknown } } | undefined;
  const envelope = parsed?.error;
  const retryAfterSeconds = parseRetryAfter(response.headers['retry-after']);
  const requestId = requestIdOf(response) ?? (typeof parsed?.meta?.requestId === 'string' ? parsed.meta.requestId : undefined);
  const fields: ErrorFields = { status: response.status, code: '', messages: [] };
  if (requestId !== undefined) fields.requestId = requestId;
  if (retryAfterSeconds !== undefined) fields.retryAfterSeconds = retryAfterSeconds;
  if (envelope && typeof envelope.code === 'string') {
    fields.code = envelope.code;
    fields.messages = toMessages(envelope.message).map(redact);
    return fields;
  }
  fields.code = response.status === 413 ? ErrorCodes.payloadTooLarge : `http_${response.status}`;
  const excerpt = response.text.trim().slice(0, BARE_BODY_EXCERPT);
  fields.messages = excerpt ? [redact(excerpt)] : [];
  return fields;
}

function toMessages(message: unknown): string[] {
  if (typeof message === 'string') return [message];
  if (Array.isArray(message)) return message.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  return [];
}

/** `Retry-After` as seconds: an integer, or an HTTP date (converted to seconds from now, at least 0). */
export function parseRetryAfter(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** `data` of a success envelope. Anything else from a 2xx is a broken peer, not a retryable failure. */
export function envelopeData<T>(response: HttpResponse, where: string): T {
  const parsed = parseJson(response.text) as { data?: unknown } | undefined;
  if (parsed === undefined || typeof parsed !== 'object' || parsed === null || !('data' in parsed)) {
    throw new PostsyncError(`${where}: the API answered ${response.status} without a JSON success envelope.`, {
      hint: 'Check that api.url / POSTSYNC_API_URL points at the Public Posting API (it ends in /public/v1).',
    });
  }
  return parsed.data as T;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
