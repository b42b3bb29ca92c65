import { describe, expect, it } from 'vitest';
import { decideRetry, DEFAULT_RETRY_POLICY, type FailedAttempt, type RetryMode } from '../../src/api/retry.js';

const status = (code: number, errorCode = 'x', retryAfterSeconds?: number): FailedAttempt => ({ kind: 'status', status: code, code: errorCode, retryAfterSeconds });
const network = (code: string, notSent = false): FailedAttempt => ({ kind: 'network', failure: { code, detail: 'd', notSent, transient: code !== 'ENOTFOUND' } });
const decide = (failed: FailedAttempt, mode: RetryMode = 'safe', attempt = 1, elapsedMs = 0) =>
  decideRetry(failed, { mode, attempt, elapsedMs, policy: DEFAULT_RETRY_POLICY, random: () => 0.999 });

describe('retry rules', () => {
  it('never retries 400, 401, 403, 404, 413 and 422', () => {
    for (const code of [400, 401, 403, 404, 413, 422]) expect(decide(status(code))).toEqual({ retry: false });
  });

  it('waits exactly Retry-After on 429 and on 409 idempotency_in_progress, nothing else on 409', () => {
    expect(decide(status(429, 'rate_limited', 7))).toMatchObject({ retry: true, wait: 'retry-after', delayMs: 7000 });
    expect(decide(status(409, 'idempotency_in_progress', 2))).toMatchObject({ retry: true, wait: 'retry-after', delayMs: 2000 });
    expect(decide(status(409, 'post_not_editable'))).toEqual({ retry: false });
  });

  it('backs off exponentially with full jitter on 500, 503 and connection errors, capped at 5 s', () => {
    const delays = [1, 2, 3, 4, 5].map((attempt) => decide(status(503), 'safe', attempt));
    expect(delays.map((v) => (v.retry ? Math.round(v.delayMs) : -1))).toEqual([200, 400, 799, 1598, 3197]);
    const capped = decideRetry(status(500), { mode: 'safe', attempt: 9, elapsedMs: 0, policy: { ...DEFAULT_RETRY_POLICY, maxAttempts: 20 }, random: () => 0.999 });
    expect(capped.retry && capped.delayMs).toBeLessThanOrEqual(5000);
    const low = decideRetry(network('ECONNRESET'), { mode: 'safe', attempt: 3, elapsedMs: 0, policy: DEFAULT_RETRY_POLICY, random: () => 0 });
    expect(low).toMatchObject({ retry: true, wait: 'backoff', delayMs: 0, reason: 'ECONNRESET' });
  });

  it('retries a call that could create a second resource only when the request surely was not processed', () => {
    expect(decide(network('ECONNRESET'), 'unsent-only')).toEqual({ retry: false });
    expect(decide(network('UND_ERR_HEADERS_TIMEOUT'), 'unsent-only')).toEqual({ retry: false });
    expect(decide(status(503), 'unsent-only')).toEqual({ retry: false });
    expect(decide(network('ECONNREFUSED', true), 'unsent-only')).toMatchObject({ retry: true });
    expect(decide(status(429, 'rate_limited', 1), 'unsent-only')).toMatchObject({ retry: true, wait: 'retry-after' });
  });

  it('stops at maxAttempts, at the time budget, and on a host that does not resolve', () => {
    expect(decide(status(503), 'safe', DEFAULT_RETRY_POLICY.maxAttempts)).toEqual({ retry: false });
    expect(decide(status(429, 'rate_limited', 30), 'safe', 1, 40_000)).toEqual({ retry: false });
    expect(decide(network('ENOTFOUND', true))).toEqual({ retry: false });
  });
});
