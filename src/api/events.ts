/**
 * What the client reports while it works; the CLI renders these (core code never prints).
 * Paths never include query strings, and no event carries the API key.
 */
export type ClientEvent =
  /** A failed attempt will be repeated after an exponential backoff with jitter. */
  | { type: 'retry'; operation: string; method: string; path: string; attempt: number; delayMs: number; reason: string }
  /** The server said how long to wait (`Retry-After` of a 429 or a 409 idempotency_in_progress). */
  | { type: 'wait'; operation: string; method: string; path: string; attempt: number; seconds: number; reason: string }
  /**
   * The shared rate limiter holds requests back for a while (the project budget is spent, or a
   * 429 paused everyone). Reported once per pause, not per request.
   */
  | { type: 'throttle'; waitMs: number; limit: number; reason: 'budget' | 'retry-after' }
  /** With `debug`: one line per HTTP exchange, `Authorization: Bearer ***`. */
  | { type: 'debug'; message: string };

export type EmitEvent = (event: ClientEvent) => void;

export interface DebugLineInput {
  method: string;
  path: string;
  /** HTTP status, or the transport failure code. */
  outcome: string;
  requestId?: string;
  ms: number;
  attempt: number;
  /** The request carried the bearer key (API calls do, presigned storage PUTs do not). */
  authorized: boolean;
}

export function debugLine(input: DebugLineInput): string {
  const parts = [`${input.method} ${input.path}`, `-> ${input.outcome}`];
  if (input.requestId) parts.push(`request-id=${input.requestId}`);
  parts.push(`${Math.round(input.ms)}ms`, `attempt=${input.attempt}`);
  if (input.authorized) parts.push('Authorization: Bearer ***');
  return `postsync:api ${parts.join(' ')}`;
}
