import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseScheduledAt } from '../../src/zoned-time/scheduled-at.js';

const instant = (text: string, zone = 'UTC') => {
  const result = parseScheduledAt(text, zone);
  if (!result.ok) throw new Error(`${text}: ${result.reason}`);
  return result.instant;
};

describe('parseScheduledAt', () => {
  it('accepts the documented forms', () => {
    expect(instant('2026-12-01 09:00')).toBe('2026-12-01T09:00:00.000Z');
    expect(instant('2026-12-01T09:00')).toBe('2026-12-01T09:00:00.000Z');
    expect(instant('2026-12-01T09:00:30')).toBe('2026-12-01T09:00:30.000Z');
    expect(instant('2026-12-01T09:00:30.5Z')).toBe('2026-12-01T09:00:30.500Z');
    expect(instant('2026-12-01 09:00 +01:00')).toBe('2026-12-01T08:00:00.000Z');
    expect(instant('2026-12-01T09:00:00-07:00', 'Europe/Berlin')).toBe('2026-12-01T16:00:00.000Z');
    expect(instant('2026-12-01T09:00:00+0530')).toBe('2026-12-01T03:30:00.000Z');
    expect(instant('2026-12-01T09:00:00Z', 'Asia/Tokyo')).toBe('2026-12-01T09:00:00.000Z');
  });

  it('reads times without an offset in the project time zone', () => {
    expect(instant('2026-12-01 09:00', 'Europe/Berlin')).toBe('2026-12-01T08:00:00.000Z');
    expect(instant('2026-07-01 09:00', 'Europe/Berlin')).toBe('2026-07-01T07:00:00.000Z');
    expect(instant('2026-07-01 09:00', 'America/New_York')).toBe('2026-07-01T13:00:00.000Z');
    expect(instant('2026-07-01 09:00', 'Asia/Kolkata')).toBe('2026-07-01T03:30:00.000Z');
    expect(instant('2026-12-31 23:30', 'Pacific/Auckland')).toBe('2026-12-31T10:30:00.000Z');
  });

  it('is exact on both sides of the Europe/Berlin spring-forward (2026-03-29 02:00 → 03:00)', () => {
    expect(instant('2026-03-29 01:59', 'Europe/Berlin')).toBe('2026-03-29T00:59:00.000Z');
    expect(instant('2026-03-29 03:00', 'Europe/Berlin')).toBe('2026-03-29T01:00:00.000Z');
    const gap = parseScheduledAt('2026-03-29 02:30', 'Europe/Berlin');
    expect(gap).toMatchObject({ ok: false, reason: 'nonexistent' });
    expect(gap.ok ? '' : gap.hint).toContain('it would be Sun 29 Mar 2026, 03:30 (+02:00)');
  });

  it('takes the earlier instant in the Europe/Berlin fall-back overlap and says so', () => {
    const overlap = parseScheduledAt('2026-10-25 02:30', 'Europe/Berlin');
    expect(overlap).toEqual({ ok: true, instant: '2026-10-25T00:30:00.000Z', ambiguous: { chosenOffset: '+02:00', otherOffset: '+01:00' } });
    expect(instant('2026-10-25 01:59', 'Europe/Berlin')).toBe('2026-10-24T23:59:00.000Z');
    expect(instant('2026-10-25 03:00', 'Europe/Berlin')).toBe('2026-10-25T02:00:00.000Z');
  });

  it('rejects malformed and impossible values', () => {
    for (const text of ['tomorrow', '2026-12-01', '01.12.2026 09:00', '2026-12-01 9:00', '2026-12-01 09:00 CET']) {
      expect(parseScheduledAt(text, 'UTC'), text).toMatchObject({ ok: false, reason: 'format' });
    }
    for (const text of ['2026-02-30 09:00', '2026-13-01 09:00', '2026-12-01 24:00', '2026-12-01 09:60', '2026-12-01 09:00+25:00']) {
      expect(parseScheduledAt(text, 'UTC'), text).toMatchObject({ ok: false, reason: 'range' });
    }
    expect(instant('2028-02-29 12:00')).toBe('2028-02-29T12:00:00.000Z');
  });
});

describe('parseScheduledAt round trip', () => {
  const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/Sao_Paulo', 'Pacific/Chatham', 'UTC'];

  it('reads back the wall time of any instant in any zone (the earlier one when it is ambiguous)', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1) / 60_000, max: Date.UTC(2040, 0, 1) / 60_000 }), fc.constantFrom(...zones), (minutes, zone) => {
        const at = new Date(minutes * 60_000);
        const parts = Object.fromEntries(
          new Intl.DateTimeFormat('en-CA', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
            .formatToParts(at)
            .map((part) => [part.type, part.value]),
        );
        const result = parseScheduledAt(`${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`, zone);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        if (result.ambiguous === undefined) expect(result.instant).toBe(at.toISOString());
        else expect(Date.parse(result.instant)).toBeLessThanOrEqual(at.getTime());
      }),
      { numRuns: 500 },
    );
  });
});
