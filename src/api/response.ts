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
  if (nestedTooDeep(response.text)) {
    throw new PostsyncError(`${where}: the API answered JSON nested more than ${MAX_ANSWER_DEPTH} levels deep, deeper than any answer of the Public Posting API; postsync reads none that deep.`, {
      hint: 'Check that api.url / POSTSYNC_API_URL points at the Public Posting API.',
    });
  }
  const parsed = parsedJson(response.text) as { data?: unknown } | undefined;
  if (parsed === undefined || typeof parsed !== 'object' || parsed === null || !('data' in parsed)) {
    throw new PostsyncError(`${where}: the API answered ${response.status} without a JSON success envelope.`, {
      hint: 'Check that api.url / POSTSYNC_API_URL points at the Public Posting API (it ends in /public/v1).',
    });
  }
  return parsed.data as T;
}

/**
 * The deepest nesting of objects and arrays an answer may have. The API's deepest field is a few
 * levels down (`data.items[].targets[].options.vidATags[]`); an answer nested far deeper would
 * overflow the stack of whatever walks it recursively later (JSON.stringify, a deep compare).
 */
export const MAX_ANSWER_DEPTH = 64;

/** Whether `text` opens more than MAX_ANSWER_DEPTH objects and arrays inside each other (brackets in strings do not count). */
function nestedTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index++; // backslash: the next character is escaped
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > MAX_ANSWER_DEPTH) return true;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return false;
}

/** The answer's JSON; undefined when it is empty, not JSON, or nested too deep to read safely. */
function parseJson(text: string): unknown {
  return nestedTooDeep(text) ? undefined : parsedJson(text);
}

/** The JSON of a text already known to be nested no deeper than MAX_ANSWER_DEPTH; undefined when it is empty or not JSON. */
function parsedJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
