import { describe, expect, it } from 'vitest';
import { StateError } from '../../src/errors.js';
import { untilPushed, type PushAttempt, type RetryClock } from '../../src/state/push-retry.js';

/** A clock that only moves when the loop sleeps, and records the waits. */
function fakeClock(random: () => number): RetryClock & { waits: number[] } {
  let now = 0;
  const waits: number[] = [];
  return { waits, now: () => now, sleep: async (ms) => void (waits.push(ms), (now += ms)), random };
}

const POLICY = { budgetMs: 10_000, baseDelayMs: 100, maxDelayMs: 1_000 };

describe('untilPushed', () => {
  it('tries again after each rejection, waiting a random share of a doubling, capped delay', async () => {
    const clock = fakeClock(() => 0.5);
    const outcomes: PushAttempt<string>[] = [...Array.from({ length: 6 }, () => ({ kind: 'rejected' as const, reason: '! [remote rejected] (failed to update ref)' })), { kind: 'done', value: 'pushed' }];
    const seen: number[] = [];
    expect(await untilPushed(async (n) => (seen.push(n), outcomes.shift()!), { branch: 'postsync/state', policy: POLICY, clock })).toBe('pushed');
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(clock.waits).toEqual([50, 100, 200, 400, 500, 500]);
  });

  it('is bounded by time, not by a count: it gives up once the next wait would end past the budget, naming the branch and the last rejection', async () => {
    const clock = fakeClock(() => 0.99);
    let attempts = 0;
    const error = await untilPushed(async () => (attempts++, { kind: 'rejected', reason: '! [rejected] (fetch first)' }), { branch: 'postsync/state', policy: POLICY, clock }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateError);
    expect((error as StateError).message).toBe(`other writers kept moving postsync/state: ${attempts} pushes were rejected in ${Math.round(clock.now() / 1000)} s (last: ! [rejected] (fetch first))`);
    expect(clock.now()).toBeLessThanOrEqual(POLICY.budgetMs);
    expect(clock.now() + 0.99 * POLICY.maxDelayMs).toBeGreaterThan(POLICY.budgetMs);
    expect(attempts).toBeGreaterThan(10);
  });

  it('passes an error of an attempt through at once', async () => {
    const clock = fakeClock(() => 0.5);
    await expect(untilPushed(async () => Promise.reject(new Error('no network')), { branch: 'b', policy: POLICY, clock })).rejects.toThrow('no network');
    expect(clock.waits).toEqual([]);
  });
});
