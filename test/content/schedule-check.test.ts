import { describe, expect, it } from 'vitest';
import { checkSchedule } from '../../src/content/schedule-check.js';

const at = (instant: string) => ({ instant, raw: instant });
const context = (now: string, acceptPastSchedule?: () => boolean) => ({ key: 'a', file: 'posts/a.md', now: new Date(now), timezone: 'Europe/Berlin', ...(acceptPastSchedule ? { acceptPastSchedule } : {}) });

describe('checkSchedule', () => {
  it('accepts now and later, and says why an earlier time is refused', () => {
    const now = '2030-05-01T10:00:00.000Z';
    expect(checkSchedule(at('2030-05-01T10:00:00.000Z'), context(now))).toBeUndefined();
    expect(checkSchedule(at('2030-05-01T10:00:00.001Z'), context(now))).toBeUndefined();
    expect(checkSchedule(at('2030-05-01T09:59:59.999Z'), context(now))).toMatchObject({ code: 'scheduled-at-past', message: 'scheduledAt Wed 1 May 2030, 11:59:59 (+02:00) is in the past', expected: 'a time after Wed 1 May 2030, 12:00 (+02:00)' });
  });

  it('compares instants of any ISO form by their time, and follows a Date changed in place', () => {
    const now = new Date('2030-05-01T10:00:00.000Z');
    expect(checkSchedule(at('+012030-05-01T10:00:00.000Z'), { key: 'a', file: 'a.md', now, timezone: 'Europe/Berlin' })).toBeUndefined();
    expect(checkSchedule(at('2030-05-01T12:00:00+02:00'), { key: 'a', file: 'a.md', now, timezone: 'Europe/Berlin' })).toBeUndefined();
    expect(checkSchedule(at('2030-05-01T11:59:00+02:00'), { key: 'a', file: 'a.md', now, timezone: 'Europe/Berlin' })?.code).toBe('scheduled-at-past');
    now.setTime(Date.parse('2031-01-01T00:00:00.000Z'));
    expect(checkSchedule(at('2030-06-01T00:00:00.000Z'), { key: 'a', file: 'a.md', now, timezone: 'Europe/Berlin' })?.code).toBe('scheduled-at-past');
  });

  it('lets the caller accept a past time it knows was applied', () => {
    expect(checkSchedule(at('2020-01-01T00:00:00.000Z'), context('2030-01-01T00:00:00.000Z', () => true))).toBeUndefined();
  });
});
