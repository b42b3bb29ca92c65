import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wallTimeIn } from '../../src/zoned-time/zone-clock.js';

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'America/St_Johns', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Pacific/Kiritimati', 'America/Santiago', 'Africa/Casablanca'];

/** The wall time as Intl's parts give it: what `wallTimeIn` must equal whichever way it reads the formatter. */
function fromParts(instantMs: number, timeZone: string) {
  const formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  const parts = Object.fromEntries(formatter.formatToParts(new Date(instantMs)).filter((part) => part.type !== 'literal').map((part) => [part.type, Number(part.value)]));
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second, millisecond: ((instantMs % 1000) + 1000) % 1000 };
}

describe('wallTimeIn', () => {
  it('reads the same wall time as the formatter parts, for any instant and zone', () => {
    // From year 1 to 9999 (what a scheduledAt can say), and the edges of DST transitions by chance.
    const instant = fc.integer({ min: Date.UTC(1, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) });
    fc.assert(
      fc.property(instant, fc.constantFrom(...ZONES), (ms, zone) => {
        expect(wallTimeIn(ms, zone)).toEqual(fromParts(ms, zone));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads the hours around a DST change, and the first and last second of a day', () => {
    const moments = [Date.UTC(2026, 2, 29, 0, 59, 59), Date.UTC(2026, 2, 29, 1, 0, 0), Date.UTC(2026, 9, 25, 0, 59, 59, 999), Date.UTC(2026, 9, 25, 1, 0, 0), Date.UTC(2026, 11, 31, 23, 59, 59, 999), Date.UTC(2027, 0, 1)];
    for (const ms of moments) for (const zone of ZONES) expect(wallTimeIn(ms, zone), `${new Date(ms).toISOString()} ${zone}`).toEqual(fromParts(ms, zone));
  });
});
