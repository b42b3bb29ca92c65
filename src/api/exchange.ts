import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, NetworkError, RemoteLimitError } from './errors.js';
import type { EmitEvent } from './events.js';
import { explainBoundPassed } from './explain.js';
import { errorFields } from './response.js';
import { decideRetry, type FailedAttempt, type RetryClock, type RetryMode, type RetryPolicy } from './retry.js';
import { BoundPassed, transportFailure, type HttpResponse } from './transport.js';

export interface ExchangeSpec {
  method: string;
  /** Path without query, for errors and events. */
  path: string;
  operation: string;
  mode: RetryMode;
  policy: RetryPolicy;
  emit: EmitEvent;
  redact: (text: string) => string;
  signal?: AbortSignal;
  /** The time the retries are waited in; the real one by default. */
  clock?: RetryClock;
  /** Sends attempt number `attempt`; throws on transport failures. */
  attempt: (attempt: number) => Promise<HttpResponse>;
}

/**
 * Runs attempts until a 2xx answer, or throws the typed error of the last attempt once the retry
 * rules (see retry.ts), the attempt limit or the time budget say stop. An answer past a bound
 * (`SendBounds`) is a RemoteLimitError at once: another attempt would cost as much again.
 */
const REAL_CLOCK: RetryClock = {
  now: () => Date.now(),
  sleep: async (ms, signal) => {
    await sleep(ms, undefined, signal ? { signal } : undefined);
  },
};

export async function exchange(spec: ExchangeSpec): Promise<HttpResponse> {
  const clock = spec.clock ?? REAL_CLOCK;
  const startedAt = clock.now();
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await attemptOnce(spec, attempt);
    if ('response' in outcome) return outcome.response;
    const verdict = decideRetry(outcome.failed, { mode: spec.mode, attempt, elapsedMs: clock.now() - startedAt, policy: spec.policy });
    const where = { operation: spec.operation, method: spec.method, path: spec.path, attempt };
    if (!verdict.retry) throw outcome.toError(attempt);
    if (verdict.wait === 'retry-after') spec.emit({ type: 'wait', ...where, seconds: verdict.delayMs / 1000, reason: verdict.reason });
    else spec.emit({ type: 'retry', ...where, delayMs: Math.round(verdict.delayMs), reason: verdict.reason });
    await clock.sleep(verdict.delayMs, spec.signal);
  }
}

type AttemptOutcome = { response: HttpResponse } | { failed: FailedAttempt; toError: (attempts: number) => ApiError | NetworkError };

async function attemptOnce(spec: ExchangeSpec, attempt: number): Promise<AttemptOutcome> {
  const where = { operation: spec.operation, method: spec.method, path: spec.path };
  let response: HttpResponse;
  try {
    response = await spec.attempt(attempt);
  } catch (error) {
    if (error instanceof BoundPassed) {
      const explained = explainBoundPassed({ ...where, bound: error.bound });
      throw new RemoteLimitError(explained.message, { hint: explained.hint });
    }
    const failure = transportFailure(error);
    if (failure === undefined) throw error;
    return {
      failed: { kind: 'network', failure },
      toError: (attempts) => new NetworkError({ ...where, code: failure.code, detail: spec.redact(failure.detail), attempts }),
    };
  }
  if (response.status >= 200 && response.status < 300) return { response };
  const fields = errorFields(response, spec.redact);
  return {
    failed: { kind: 'status', status: fields.status, code: fields.code, retryAfterSeconds: fields.retryAfterSeconds },
    toError: (attempts) => new ApiError({ ...fields, ...where, attempts }),
  };
}
