import { setTimeout as sleep } from 'node:timers/promises';
import { StateError } from '../errors.js';

/**
 * How long a push that other writers keep rejecting is tried again. Every attempt fetches the
 * branch, merges into it and pushes; the waits between attempts grow exponentially with full
 * jitter (a random wait in [0, min(maxDelayMs, baseDelayMs * 2^(n-1)))), so writers that collided
 * spread out instead of colliding again in step. The bound is a time, not a count: with many
 * writers, every round lets one of them through, and the last one needs as many rounds as there
 * are writers.
 */
export interface PushRetryPolicy {
  /** No attempt starts later than this after the first one. */
  budgetMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Far below the apply workflow's job timeouts, far above what one merge's writers need. */
export const DEFAULT_PUSH_RETRY: PushRetryPolicy = { budgetMs: 5 * 60_000, baseDelayMs: 250, maxDelayMs: 8_000 };

/** The clock of the loop: given by tests that must not wait. */
export interface RetryClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** In [0, 1). */
  random(): number;
}

export const SYSTEM_CLOCK: RetryClock = { now: () => Date.now(), sleep: (ms) => sleep(ms), random: () => Math.random() };

/** What one attempt ended with: done with its value, or rejected by the remote because another writer moved the branch. */
export type PushAttempt<T> = { kind: 'done'; value: T } | { kind: 'rejected'; reason: string };

/**
 * Runs `attempt` until it is done, waiting with backoff and jitter after each rejection, for at
 * most `policy.budgetMs`. Each attempt is expected to start from the branch as it is now (fetch,
 * merge, push), so trying again is always safe: a rejected push changed nothing on the remote.
 */
export async function untilPushed<T>(attempt: (n: number) => Promise<PushAttempt<T>>, options: { branch: string; policy?: PushRetryPolicy; clock?: RetryClock }): Promise<T> {
  const policy = options.policy ?? DEFAULT_PUSH_RETRY;
  const clock = options.clock ?? SYSTEM_CLOCK;
  const started = clock.now();
  for (let n = 1; ; n++) {
    const outcome = await attempt(n);
    if (outcome.kind === 'done') return outcome.value;
    const delay = clock.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1));
    if (clock.now() + delay - started > policy.budgetMs) {
      const seconds = Math.round((clock.now() - started) / 1000);
      throw new StateError(`other writers kept moving ${options.branch}: ${n} pushes were rejected in ${seconds} s (last: ${outcome.reason})`, {
        hint: 'Nothing was overwritten; run it again (postsync state push --merge fetches, merges and pushes the union).',
      });
    }
    await clock.sleep(delay);
  }
}
