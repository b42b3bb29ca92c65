import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dayTitle, formatOffset, isDay, isoWeek, mondayOf, pad, shiftDay } from '../../src/zoned-time/index.js';

describe('days as YYYY-MM-DD text: one set of helpers for the server and the page', () => {
  it('counts days across months, years and a DST change without a 23- or 25-hour day', () => {
    expect(shiftDay('2026-12-28', 7)).toBe('2027-01-04');
    expect(shiftDay('2027-03-01', -1)).toBe('2027-02-28');
    expect(shiftDay('2027-03-27', 2)).toBe('2027-03-29');
  });

  it('finds the Monday and the ISO week of a day, also where the week straddles a year', () => {
    expect(mondayOf('2027-01-03')).toBe('2026-12-28');
    expect(mondayOf('2027-01-04')).toBe('2027-01-04');
    expect(isoWeek('2027-01-03')).toBe('2026-W53');
    expect(isoWeek('2027-01-04')).toBe('2027-W01');
    expect(isoWeek('2025-12-29')).toBe('2026-W01');
    expect(isoWeek('2027-12-31')).toBe('2027-W52');
  });

  it('titles a day as every time is shown, and passes a text that is not a day through', () => {
    expect(dayTitle('2027-01-04')).toBe('Mon 4 Jan 2027');
    expect(dayTitle('someday')).toBe('someday');
    expect(mondayOf('someday')).toBe('someday');
  });

  it('tells a real day written exactly YYYY-MM-DD', () => {
    expect(['2027-01-04', '2024-02-29'].map(isDay)).toEqual([true, true]);
    expect(['2027-02-29', '2027-1-04', ' 2027-01-04', '2027-01-04T00:00'].map(isDay)).toEqual([false, false, false, false]);
  });

  it('pads numbers and writes UTC offsets one way', () => {
    expect([pad(7), pad(7, 3), pad(2027, 4), pad(12)]).toEqual(['07', '007', '2027', '12']);
    expect([formatOffset(3_600_000), formatOffset(-12_600_000), formatOffset(0)]).toEqual(['+01:00', '-03:30', '+00:00']);
  });

  it('is not copied into the page\'s script, which imports it', () => {
    const folder = new URL('../../src/calendar/browser/', import.meta.url);
    const sources = readdirSync(folder).filter((name) => name.endsWith('.ts')).map((name) => readFileSync(new URL(name, folder), 'utf8'));
    const copies = sources.filter((source) => /function (mondayOf|dayTitle|isDay|isoWeek|pad)\b|getUTCDay\(\) \+ 6/.test(source));
    expect(copies).toEqual([]);
    expect(sources.some((source) => source.includes("from '../../zoned-time/day-strings.js'"))).toBe(true);
  });
});
