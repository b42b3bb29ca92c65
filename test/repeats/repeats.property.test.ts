import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseScheduledAt } from '../../src/zoned-time/scheduled-at.js';
import { expandRepeat } from '../../src/repeats/index.js';
import { formatClock, wallMomentOf } from '../../src/zoned-time/index.js';

const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC'];

const seriesArbitrary = fc.record({
  zone: fc.constantFrom(...ZONES),
  day: fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2028-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  minute: fc.integer({ min: 0, max: 1439 }),
  every: fc.oneof(
    fc.integer({ min: 1, max: 10 }).map((n) => `${n} days`),
    fc.tuple(fc.integer({ min: 1, max: 3 }), fc.subarray(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'])).map(([n, days]) => `${n} weeks${days.length > 0 ? ` on ${days.join(', ')}` : ''}`),
    fc.tuple(fc.integer({ min: 1, max: 4 }), fc.subarray([1, 15, 28, 29, 30, 31])).map(([n, days]) => `${n} months${days.length > 0 ? ` on day ${days.join(', ')}` : ''}`),
  ),
  variants: fc.array(fc.string({ minLength: 1 }), { maxLength: 3 }),
  skipEvery: fc.integer({ min: 0, max: 5 }),
});

type Series = typeof seriesArbitrary extends fc.Arbitrary<infer T> ? T : never;

function expand(series: Series, end: Record<string, unknown>, skip: string[] = []) {
  const scheduledAt = `${series.day} ${formatClock(series.minute)}`;
  const parsed = parseScheduledAt(scheduledAt, series.zone);
  const instant = parsed.ok ? parsed.instant : new Date(Date.parse(`${series.day}T12:00:00Z`)).toISOString();
  const result = expandRepeat({
    key: 'evergreen',
    file: 'posts/evergreen.md',
    frontMatter: { scheduledAt, repeat: { every: series.every, ...end, skip }, variants: series.variants },
    locate: () => undefined,
    scheduledAt: instant,
    draft: false,
    body: 'Body',
    timezone: series.zone,
  });
  // An `until` before the first date is an error of its own: the series is empty.
  expect(result.diagnostics.filter((d) => d.severity === 'error' && d.code !== 'repeat-empty')).toEqual([]);
  return result.occurrences;
}

/** Some dates of the series to skip: every n-th of its first dates. */
function skipsOf(series: Series): string[] {
  if (series.skipEvery === 0) return [];
  return expand(series, { count: 12 }).filter((_, index) => index % series.skipEvery === 1).map((o) => o.date);
}

describe('repeat expansion (properties)', () => {
  it('is deterministic, whatever the time zone of the machine', () => {
    const machineZone = process.env.TZ;
    try {
      fc.assert(
        fc.property(seriesArbitrary, fc.integer({ min: 1, max: 30 }), (series, count) => {
          process.env.TZ = 'Pacific/Auckland';
          const here = expand(series, { count }, skipsOf(series));
          process.env.TZ = 'America/Los_Angeles';
          const there = expand(series, { count }, skipsOf(series));
          expect(there).toEqual(here);
          expect(expand(series, { count }, skipsOf(series))).toEqual(here);
        }),
        { numRuns: 60 },
      );
    } finally {
      if (machineZone === undefined) delete process.env.TZ;
      else process.env.TZ = machineZone;
    }
  });

  it('gives exactly `count` occurrences in date order, each at the wall time of the first unless DST moved it', () => {
    fc.assert(
      fc.property(seriesArbitrary, fc.integer({ min: 1, max: 30 }), (series, count) => {
        const skip = skipsOf(series);
        const occurrences = expand(series, { count }, skip);
        expect(occurrences).toHaveLength(count);
        expect(new Set(occurrences.map((o) => o.key)).size).toBe(count);
        for (const [index, occurrence] of occurrences.entries()) {
          expect(skip).not.toContain(occurrence.date);
          if (index > 0) expect(occurrence.date > occurrences[index - 1]!.date).toBe(true);
          const wall = wallMomentOf(Date.parse(occurrence.scheduledAt), series.zone);
          if (!occurrence.shifted) expect(wall.minute).toBe(series.minute);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('keeps keys, times and texts when the count grows; shrinking removes only the tail', () => {
    fc.assert(
      fc.property(seriesArbitrary, fc.integer({ min: 1, max: 25 }), fc.integer({ min: 0, max: 15 }), (series, fewer, more) => {
        const skip = skipsOf(series);
        const small = expand(series, { count: fewer }, skip);
        const large = expand(series, { count: fewer + more }, skip);
        expect(large.slice(0, small.length)).toEqual(small);
      }),
      { numRuns: 100 },
    );
  });

  it('keeps keys when `until` moves later; moving it earlier removes only the tail', () => {
    fc.assert(
      fc.property(seriesArbitrary, fc.integer({ min: 0, max: 120 }), fc.integer({ min: 0, max: 120 }), (series, a, b) => {
        const dayAfter = (days: number) => new Date(Date.parse(`${series.day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
        const [early, late] = [dayAfter(Math.min(a, b)), dayAfter(Math.max(a, b))];
        const skip = skipsOf(series);
        const short = expand(series, { until: early }, skip);
        const long = expand(series, { until: late }, skip);
        expect(long.slice(0, short.length)).toEqual(short);
        expect(long.slice(short.length).every((o) => o.date > early)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
