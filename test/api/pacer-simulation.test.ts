import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Pacer, type RateAnswer } from '../../src/api/pacer.js';

/**
 * The pacer against simulated rate limiters on a fake clock, for windows far too long to wait for
 * in real time (the real-time check against the emulator is pacing.test.ts). Each request takes
 * `latencyMs` there and back; the limiter counts it halfway.
 */
interface Limiter {
  take(nowMs: number): RateAnswer;
}

/** Fixed windows aligned to multiples of the window, like the emulator's. */
function fixedWindow(limit: number, windowMs: number, phaseMs = 0): Limiter {
  let start = -1;
  let count = 0;
  return {
    take(now) {
      const current = Math.floor((now + phaseMs) / windowMs) * windowMs;
      if (current !== start) [start, count] = [current, 0];
      if (count >= limit) return { status: 429, limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now - phaseMs) / 1000)) };
      count += 1;
      return { status: 200, limit, remaining: limit - count };
    },
  };
}

/** A sliding log: at most `limit` requests in any `windowMs`. */
function slidingWindow(limit: number, windowMs: number): Limiter {
  const log: number[] = [];
  return {
    take(now) {
      while (log.length > 0 && (log[0] as number) <= now - windowMs) log.shift();
      if (log.length >= limit) return { status: 429, limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(((log[0] as number) + windowMs - now) / 1000)) };
      log.push(now);
      return { status: 200, limit, remaining: limit - log.length };
    },
  };
}

async function simulate(limiter: Limiter, requests: number, latencyMs = 4): Promise<{ tooMany: number; elapsedMs: number }> {
  const pacer = new Pacer(() => {}, () => Date.now());
  const started = Date.now();
  let tooMany = 0;
  const one = async (): Promise<void> => {
    for (;;) {
      const ticket = await pacer.acquire();
      await new Promise((resolve) => setTimeout(resolve, latencyMs / 2));
      const answer = limiter.take(Date.now());
      await new Promise((resolve) => setTimeout(resolve, latencyMs / 2));
      pacer.settle(ticket, answer);
      if (answer.status !== 429) return;
      tooMany += 1;
      await new Promise((resolve) => setTimeout(resolve, (answer.retryAfterSeconds ?? 1) * 1000));
    }
  };
  let done = false;
  const all = Promise.all(Array.from({ length: requests }, one)).then(() => {
    done = true;
  });
  while (!done) await vi.advanceTimersByTimeAsync(latencyMs);
  await all;
  pacer.close();
  return { tooMany, elapsedMs: Date.now() - started };
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00.250Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('pacer on simulated rate limiters (fake clock)', () => {
  it('a 600 per 60 s fixed window: no 429, close to the ideal time', async () => {
    const { tooMany, elapsedMs } = await simulate(fixedWindow(600, 60_000), 2000);
    expect(tooMany).toBe(0);
    // Ideal: the fourth window has begun (2000 = 3 × 600 + 200); measured about 204 s.
    expect(elapsedMs).toBeLessThan(4 * 60_000);
  });

  it('a 50 per 1 s fixed window at any phase: fewer than 1% 429 answers', async () => {
    for (const phase of [0, 330, 910]) {
      const { tooMany } = await simulate(fixedWindow(50, 1000, phase), 500);
      expect(tooMany).toBeLessThan(5);
    }
  });

  it('a small limit (5 per 3 s) is slow but never rejected', async () => {
    expect((await simulate(fixedWindow(5, 3000), 30)).tooMany).toBe(0);
  });

  it('a sliding window: few 429 answers, and they pause everyone', async () => {
    const { tooMany } = await simulate(slidingWindow(50, 1000), 500);
    expect(tooMany).toBeLessThan(5);
  });

  it('a window longer than the assumed 60 s: the pacer widens its estimate after a probe finds no reset', async () => {
    const { tooMany } = await simulate(fixedWindow(20, 300_000), 60);
    expect(tooMany).toBeLessThanOrEqual(2);
  });
});
