import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  clampedDayOfMonth,
  dayNumber,
  formatCivilDate,
  formatDuration,
  fromDayNumber,
  instantAt,
  isoWeekday,
  monthNumber,
  parseCivilDate,
  parseClock,
  parseDuration,
  parseWallMoment,
  parseWeekday,
  wallMomentOf,
  weekStart,
} from '../../src/zoned-time/index.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('civil dates', () => {
  it('parses real dates only, and counts days and weekdays', () => {
    expect(parseCivilDate('2027-01-18')).toEqual({ year: 2027, month: 1, day: 18 });
    expect(parseCivilDate('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
    for (const text of ['2027-02-29', '2027-13-01', '2027-1-18', '18.01.2027', '2027-01-18 09:00']) expect(parseCivilDate(text), text).toBeUndefined();
    expect(dayNumber({ year: 1970, month: 1, day: 1 })).toBe(0);
    expect(isoWeekday({ year: 2027, month: 1, day: 18 })).toBe(1);
    expect(isoWeekday({ year: 2027, month: 1, day: 24 })).toBe(7);
    expect(weekStart({ year: 2027, month: 1, day: 1 })).toEqual({ year: 2026, month: 12, day: 28 });
    expect(formatCivilDate(addDays({ year: 2026, month: 12, day: 31 }, 60))).toBe('2027-03-01');
    expect(clampedDayOfMonth(monthNumber({ year: 2027, month: 2 }), 31)).toEqual({ year: 2027, month: 2, day: 28 });
  });

  it('round-trips day numbers over four centuries', () => {
    fc.assert(
      fc.property(fc.integer({ min: -200_000, max: 200_000 }), (days) => {
        const date = fromDayNumber(days);
        expect(dayNumber(date)).toBe(days);
        expect(parseCivilDate(formatCivilDate(date))).toEqual(date);
        expect(isoWeekday(addDays(date, 7))).toBe(isoWeekday(date));
      }),
    );
  });
});

describe('wall moments in a time zone', () => {
  it('reads the wall clock of an instant, and the instant of a wall clock, across DST', () => {
    expect(wallMomentOf(Date.parse('2026-03-29T01:30:00Z'), 'Europe/Berlin')).toEqual({ date: { year: 2026, month: 3, day: 29 }, minute: 3 * 60 + 30 });
    expect(iso(instantAt({ date: { year: 2026, month: 7, day: 1 }, minute: 9 * 60 }, 'Europe/Berlin').instantMs)).toBe('2026-07-01T07:00:00.000Z');
    expect(iso(instantAt({ date: { year: 2026, month: 12, day: 1 }, minute: 9 * 60 }, 'Europe/Berlin').instantMs)).toBe('2026-12-01T08:00:00.000Z');
  });

  it('moves a time inside a spring-forward gap forward by the gap, and takes the earlier of a fall-back overlap', () => {
    expect(instantAt({ date: { year: 2026, month: 3, day: 29 }, minute: 150 }, 'Europe/Berlin')).toEqual({ instantMs: Date.parse('2026-03-29T01:30:00Z'), shifted: true });
    expect(instantAt({ date: { year: 2026, month: 10, day: 25 }, minute: 150 }, 'Europe/Berlin')).toEqual({ instantMs: Date.parse('2026-10-25T00:30:00Z'), shifted: false });
    expect(iso(instantAt({ date: { year: 2026, month: 3, day: 8 }, minute: 150 }, 'America/New_York').instantMs)).toBe('2026-03-08T07:30:00.000Z');
  });

  it('gives back the wall moment it was given, unless the moment falls in a gap', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham', 'UTC'];
    fc.assert(
      fc.property(fc.integer({ min: dayNumber({ year: 2020, month: 1, day: 1 }), max: dayNumber({ year: 2035, month: 12, day: 31 }) }), fc.integer({ min: 0, max: 1439 }), fc.constantFrom(...zones), (days, minute, zone) => {
        const moment = { date: fromDayNumber(days), minute };
        const { instantMs, shifted } = instantAt(moment, zone);
        if (!shifted) expect(wallMomentOf(instantMs, zone)).toEqual(moment);
        else expect(wallMomentOf(instantMs, zone).minute).not.toBe(minute);
      }),
      { numRuns: 300 },
    );
  });

  it('reads dates and date-times written without an offset', () => {
    expect(parseWallMoment('2027-01-10')).toEqual({ moment: { date: { year: 2027, month: 1, day: 10 }, minute: 0 }, hasTime: false });
    expect(parseWallMoment('2027-01-10 12:30')).toEqual({ moment: { date: { year: 2027, month: 1, day: 10 }, minute: 750 }, hasTime: true });
    expect(parseWallMoment('2027-01-10T12:30')).toMatchObject({ hasTime: true });
    for (const text of ['2027-01-32', '2027-01-10 24:00', '2027-01-10 12:30+01:00', 'tomorrow']) expect(parseWallMoment(text), text).toBeUndefined();
  });
});

describe('phrases', () => {
  it('reads clock times, durations and weekday names', () => {
    expect(parseClock('07:00')).toBe(420);
    expect(parseClock('7:05')).toBe(425);
    for (const text of ['24:00', '7', '07:60', '7am']) expect(parseClock(text), text).toBeUndefined();
    expect([parseDuration('2h'), parseDuration('90m'), parseDuration('1h30m'), parseDuration('2 hours'), parseDuration('1 day 6 hours'), parseDuration('45 min')]).toEqual([120, 90, 90, 120, 1800, 45]);
    for (const text of ['', '0h', '2', 'two hours', '2 fortnights', '1h 30']) expect(parseDuration(text), text).toBeUndefined();
    expect([formatDuration(90), formatDuration(120), formatDuration(2880)]).toEqual(['1 h 30 min', '2 h', '2 days']);
    expect([parseWeekday('Mon'), parseWeekday('thursday'), parseWeekday('SUN'), parseWeekday('Mun')]).toEqual([1, 4, 7, undefined]);
  });
});
