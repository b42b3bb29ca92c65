import { describe, expect, it } from 'vitest';
import { StateError } from '../../src/errors.js';
import { DEFAULT_PUSH_RETRY, untilPushed, type PushAttempt, type RetryClock } from '../../src/state/push-retry.js';

/** A clock that only moves when the loop sleeps, and records the waits. */
function fakeClock(random: () => number, start = 0): RetryClock & { waits: number[] } {
  let now = start;
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

  it('may start an attempt at the very end of the budget, counted from the first attempt, and says to run it again', async () => {
    const started = 1_700_000_000_000;
    const clock = fakeClock(() => 0.5, started);
    let attempts = 0;
    const error = await untilPushed(async () => (attempts++, { kind: 'rejected', reason: '! [rejected] (fetch first)' }), { branch: 'b', policy: { budgetMs: 2_000, baseDelayMs: 2_000, maxDelayMs: 2_000 }, clock }).catch((caught: unknown) => caught);
    // Waits of 1 s each: the third attempt starts 2 s after the first, exactly at the budget.
    expect(attempts).toBe(3);
    expect(clock.waits).toEqual([1_000, 1_000]);
    expect(error).toBeInstanceOf(StateError);
    expect((error as StateError).message).toBe('other writers kept moving b: 3 pushes were rejected in 2 s (last: ! [rejected] (fetch first))');
    expect((error as StateError).hint).toBe('Nothing was overwritten; run it again (postsync state push --merge fetches, merges and pushes the union).');
  });

  it('tries for five minutes by default', async () => {
    const clock = fakeClock(() => 0.99);
    await untilPushed(async () => ({ kind: 'rejected', reason: '! [rejected]' }), { branch: 'b', clock }).catch(() => undefined);
    expect(clock.now()).toBeLessThanOrEqual(5 * 60_000);
    expect(clock.now()).toBeGreaterThan(5 * 60_000 - DEFAULT_PUSH_RETRY.maxDelayMs);
  });
});
