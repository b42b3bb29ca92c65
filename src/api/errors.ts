import { PostsyncError } from '../errors.js';
import { terminalText } from '../text/terminal.js';
import { explainApiError, explainNetworkError } from './explain.js';

/** What is known about one failed API answer. Plain values only: never headers, options or the key. */
export interface ApiErrorDetails {
  status: number;
  /** `error.code` of the envelope; `payload_too_large` for a bare 413, `http_<status>` for other bare answers. */
  code: string;
  /** `error.message`, always as an array (a string message becomes one item). Secrets redacted. */
  messages: string[];
  requestId?: string;
  retryAfterSeconds?: number;
  method: string;
  /** URL path without the query string (presigned storage URLs carry signatures there). */
  path: string;
  /** What the call was for, in words: "scheduling a post", "listing posts". */
  operation: string;
  /** How many requests were sent for this call, retries included. */
  attempts: number;
}

/**
 * A non-2xx answer of the API (or of the storage a presigned URL points at), after the retries
 * the call allowed. The message names the operation and says what to do about it.
 */
export class ApiError extends PostsyncError {
  readonly status: number;
  readonly code: string;
  readonly messages: string[];
  readonly requestId?: string;
  readonly retryAfterSeconds?: number;
  readonly method: string;
  readonly path: string;
  readonly operation: string;
  readonly attempts: number;

  constructor(details: ApiErrorDetails) {
    // The remote's words go into a message of ours, printed line by line: no line break or control character of theirs survives.
    const explained = explainApiError({ ...details, code: terminalText(details.code), messages: details.messages.map((message) => terminalText(message)) });
    super(explained.message, { hint: explained.hint });
    this.status = details.status;
    this.code = details.code;
    this.messages = [...details.messages];
    if (details.requestId !== undefined) this.requestId = details.requestId;
    if (details.retryAfterSeconds !== undefined) this.retryAfterSeconds = details.retryAfterSeconds;
    this.method = details.method;
    this.path = details.path;
    this.operation = details.operation;
    this.attempts = details.attempts;
  }
}

export interface NetworkErrorDetails {
  method: string;
  path: string;
  operation: string;
  /** Node or undici error code: ECONNRESET, ECONNREFUSED, UND_ERR_SOCKET, UND_ERR_HEADERS_TIMEOUT... */
  code: string;
  /** The low-level error message ("other side closed"); never contains headers. */
  detail: string;
  attempts: number;
}

/** No HTTP answer at all (reset, refused, timeout), after the retries the call allowed. */
export class NetworkError extends PostsyncError {
  readonly method: string;
  readonly path: string;
  readonly operation: string;
  readonly code: string;
  readonly attempts: number;

  constructor(details: NetworkErrorDetails) {
    const explained = explainNetworkError(details);
    super(explained.message, { hint: explained.hint });
    this.method = details.method;
    this.path = details.path;
    this.operation = details.operation;
    this.code = details.code;
    this.attempts = details.attempts;
  }
}

/**
 * The remote went past a bound postsync keeps on what it reads from it: the bytes of one answer,
 * the time of one call, the pages of one listing, the size of a media download. Never retried:
 * asking again would cost as much again.
 */
export class RemoteLimitError extends PostsyncError {}
