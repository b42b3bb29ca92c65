import { ErrorCodes } from './error-codes.js';
import type { TransportFailure } from './transport.js';

/**
 * How a call may be repeated.
 * - `safe`: repeating cannot duplicate anything (GET, PATCH, DELETE, POST /posts with its
 *   Idempotency-Key, multipart operations, media complete, storage PUTs).
 * - `unsent-only`: a repeat could create a second resource (POST /media/uploads): retried only when
 *   the request surely never reached the server (connection refused or not established) or was
 *   rejected by the rate limiter (429), which answers before any handler runs.
 */
export type RetryMode = 'safe' | 'unsent-only';

export interface RetryPolicy {
  /** Attempts in total, the first one included. */
  maxAttempts: number;
  /** Time from the first attempt after which no further attempt starts. */
  budgetMs: number;
  /** Exponential backoff with full jitter: a random delay in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))). */
  baseDelayMs: number;
  maxDelayMs: number;
}

/** The time of retries: read and waited through it, so a test can let the waits go by at once. */
export interface RetryClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 6, budgetMs: 60_000, baseDelayMs: 200, maxDelayMs: 5_000 };

/** What one attempt ended with, when it was not a success. */
export type FailedAttempt =
  | { kind: 'status'; status: number; code: string; retryAfterSeconds?: number }
  | { kind: 'network'; failure: TransportFailure };

export type Verdict =
  | { retry: false }
  /** `retry-after`: the server said how long (429, 409 idempotency_in_progress or media_not_ready): waited exactly, within the time budget. */
  | { retry: true; wait: 'retry-after' | 'backoff'; delayMs: number; reason: string };

/** Without a Retry-After header on a 409 that says to wait (in progress, media not ready), wait this long. */
const IN_PROGRESS_FALLBACK_SECONDS = 1;
const BACKOFF_STATUSES = new Set([500, 502, 503, 504]);

export function decideRetry(
  failed: FailedAttempt,
  context: { mode: RetryMode; attempt: number; elapsedMs: number; policy: RetryPolicy; random?: () => number },
): Verdict {
  const { mode, attempt, elapsedMs, policy } = context;
  if (attempt >= policy.maxAttempts) return { retry: false };
  const backoff = (): number => (context.random ?? Math.random)() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  let verdict: Verdict = { retry: false };
  if (failed.kind === 'network') {
    const { failure } = failed;
    if (failure.transient && (mode === 'safe' || failure.notSent)) {
      verdict = { retry: true, wait: 'backoff', delayMs: backoff(), reason: failure.code };
    }
  } else if (failed.status === 429) {
    verdict = failed.retryAfterSeconds === undefined
      ? { retry: true, wait: 'backoff', delayMs: backoff(), reason: `429 ${failed.code}` }
      : { retry: true, wait: 'retry-after', delayMs: failed.retryAfterSeconds * 1000, reason: `429 ${failed.code}` };
  } else if (failed.status === 409 && (failed.code === ErrorCodes.idempotencyInProgress || failed.code === ErrorCodes.mediaNotReady)) {
    const seconds = failed.retryAfterSeconds ?? IN_PROGRESS_FALLBACK_SECONDS;
    verdict = { retry: true, wait: 'retry-after', delayMs: seconds * 1000, reason: `409 ${failed.code}` };
  } else if (BACKOFF_STATUSES.has(failed.status) && mode === 'safe') {
    verdict = { retry: true, wait: 'backoff', delayMs: backoff(), reason: `${failed.status} ${failed.code}` };
  }
  if (verdict.retry && elapsedMs + verdict.delayMs > policy.budgetMs) return { retry: false };
  return verdict;
}
