import { describe, expect, it } from 'vitest';
import type { BlackoutRule, MaxPostsRule, MinGapRule, QuietHoursRule } from '../../src/config/house-rule-types.js';
import { checkHouseRules, type HouseRulesInput } from '../../src/house-rules/index.js';
import { wallMinutes } from '../../src/zoned-time/index.js';
import { ACCOUNTS, at, PHOTO, post, rule, SHORT, target, VIDEO, ZONE } from './rule-fixtures.js';

function check(input: Omit<HouseRulesInput, 'timezone' | 'accounts'>) {
  return checkHouseRules({ timezone: ZONE, accounts: ACCOUNTS, ...input }).violations;
}

const nights = rule<QuietHoursRule>({ kind: 'quietHours', name: 'nights', from: 22 * 60, to: 7 * 60 });

describe('quiet hours', () => {
  it('reports a post inside them, on the project clock, with where it is written and a hint', () => {
    const violations = check({ posts: [post('late', '2027-01-04 23:30'), post('early', '2027-01-05 06:59'), post('fine', '2027-01-05 07:00'), post('evening', '2027-01-05 21:59')], rules: [nights] });
    expect(violations).toEqual([
      {
        severity: 'error',
        code: 'rule-quiet-hours',
        rule: 'nights',
        key: 'early',
        file: 'posts/early.md',
        line: 2,
        column: 14,
        message: 'rule `nights`: 06:59 is in the quiet hours 22:00–07:00 (brand-photo)',
        expected: 'a time from 07:00 to 22:00',
        found: 'Tue 5 Jan 2027, 06:59 (+01:00)',
        hint: 'Move it to 07:00 or later (before 22:00), or write `scheduledAt: next-slot`.',
      },
      expect.objectContaining({ key: 'late', message: 'rule `nights`: 23:30 is in the quiet hours 22:00–07:00 (brand-photo)', found: 'Mon 4 Jan 2027, 23:30 (+01:00)' }),
    ]);
  });

  it('keeps to the wall clock across DST, applies only in scope, and reports a warning as a warning', () => {
    const lunch = rule<QuietHoursRule>({ kind: 'quietHours', name: 'lunch', from: 12 * 60, to: 13 * 60, severity: 'warning', scope: { accounts: [VIDEO], platforms: null, when: null } });
    const posts = [post('winter', '2027-01-04 12:30', { targets: [target(VIDEO)] }), post('summer', '2027-07-05 12:30', { targets: [target(VIDEO), target(PHOTO)] }), post('photo-only', '2027-07-05 12:30')];
    expect(check({ posts, rules: [lunch] }).map((v) => [v.key, v.severity, v.message])).toEqual([
      ['summer', 'warning', 'rule `lunch`: 12:30 is in the quiet hours 12:00–13:00 (brand-video)'],
      ['winter', 'warning', 'rule `lunch`: 12:30 is in the quiet hours 12:00–13:00 (brand-video)'],
    ]);
  });

  it('looks at scheduled posts only: a draft has no time', () => {
    expect(check({ posts: [post('draft', null)], rules: [nights] })).toEqual([]);
  });
});

describe('blackout', () => {
  const day = (text: string, minute = 0) => wallMinutes({ date: { year: Number(text.slice(0, 4)), month: Number(text.slice(5, 7)), day: Number(text.slice(8, 10)) }, minute });
  const holidays = rule<BlackoutRule>({
    kind: 'blackout',
    name: 'holidays',
    periods: [
      { from: day('2026-12-25'), to: day('2026-12-26'), label: '2026-12-25' },
      { from: day('2027-01-10'), to: day('2027-01-20', 720), label: '2027-01-10 – 2027-01-20 12:00', reason: 'product embargo' },
    ],
  });

  it('reports posts on a blackout date or inside a period, with its reason', () => {
    const posts = [post('xmas', '2026-12-25 09:00'), post('boxing-day', '2026-12-26 00:00'), post('embargo', '2027-01-20 11:59'), post('after', '2027-01-20 12:00')];
    expect(check({ posts, rules: [holidays] }).map((v) => [v.key, v.code, v.message, v.hint])).toEqual([
      ['embargo', 'rule-blackout', 'rule `holidays`: 2027-01-20 is in the blackout 2027-01-10 – 2027-01-20 12:00 (product embargo)', 'Move it out of 2027-01-10 – 2027-01-20 12:00.'],
      ['xmas', 'rule-blackout', 'rule `holidays`: 2026-12-25 is in the blackout 2026-12-25', 'Move it out of 2026-12-25.'],
    ]);
  });
});

describe('minimum gap', () => {
  const gap = rule<MinGapRule>({ kind: 'minGap', name: 'gap', minutes: 120 });

  it('reports the later of two posts too close on one account, naming the other', () => {
    const violations = check({ posts: [post('a', '2027-01-04 09:00'), post('b', '2027-01-04 10:30'), post('c', '2027-01-04 12:30'), post('other-account', '2027-01-04 09:30', { targets: [target(VIDEO)] })], rules: [gap] });
    expect(violations).toEqual([
      expect.objectContaining({
        code: 'rule-min-gap',
        key: 'b',
        accountId: PHOTO,
        message: 'rule `gap`: 1 h 30 min from `a` on brand-photo; posts on one account must be at least 2 h apart',
        expected: 'at least 2 h from every other post on brand-photo',
        found: 'Mon 4 Jan 2027, 10:30 (+01:00)',
        clashesWith: [{ key: 'a', file: 'posts/a.md', scheduledAt: at('2027-01-04 09:00') }],
      }),
    ]);
  });

  it('blames a changed post, never a settled one, and not a post already blocked', () => {
    const posts = [post('new', '2027-01-04 08:00'), post('applied', '2027-01-04 09:00', { standing: 'settled' }), post('newer', '2027-01-04 10:00')];
    expect(check({ posts, rules: [gap] }).map((v) => [v.key, v.clashesWith?.map((c) => c.key)])).toEqual([
      ['new', ['applied']],
      ['newer', ['applied']],
    ]);
  });

  it('counts posts without a file, and a same-time post as 0 min apart', () => {
    const violations = check({ posts: [post('mine', '2027-01-04 09:00')], others: [{ postId: 'f00d', accountIds: [PHOTO], scheduledAt: at('2027-01-04 09:00') }], rules: [gap] });
    expect(violations).toMatchObject([{ key: 'mine', message: 'rule `gap`: at the same time as post f00d (no file) on brand-photo; posts on one account must be at least 2 h apart', clashesWith: [{ postId: 'f00d', scheduledAt: at('2027-01-04 09:00') }] }]);
  });
});

describe('posts per day and per week', () => {
  const daily = rule<MaxPostsRule>({ kind: 'maxPerDay', name: 'daily', limit: 2 });
  const weekly = rule<MaxPostsRule>({ kind: 'maxPerWeek', name: 'weekly', limit: 3, scope: { accounts: null, platforms: ['shortB'], when: null } });

  it('reports each post over the daily limit on an account, with the posts already there', () => {
    const posts = [post('a', '2027-01-04 08:00'), post('b', '2027-01-04 12:00'), post('c', '2027-01-04 23:59'), post('next-day', '2027-01-05 00:00')];
    expect(check({ posts, rules: [daily] })).toEqual([
      expect.objectContaining({
        code: 'rule-max-per-day',
        key: 'c',
        accountId: PHOTO,
        message: 'rule `daily`: the 3rd post on brand-photo on 2027-01-04; at most 2 a day',
        expected: 'at most 2 posts a day on brand-photo',
        hint: 'Move it to another day; already there: `a`, `b`.',
        clashesWith: [expect.objectContaining({ key: 'a' }), expect.objectContaining({ key: 'b' })],
      }),
    ]);
  });

  it('counts Monday to Sunday weeks on the project clock, per account in scope', () => {
    const short = (key: string, when: string) => post(key, when, { targets: [target(SHORT)] });
    const posts = [short('mon', '2027-01-04 09:00'), short('wed', '2027-01-06 09:00'), short('sun', '2027-01-10 23:00'), short('sun-late', '2027-01-10 23:30'), short('next-mon', '2027-01-11 00:30'), post('photo', '2027-01-07 09:00')];
    expect(check({ posts, rules: [weekly] }).map((v) => [v.key, v.message])).toEqual([['sun-late', 'rule `weekly`: the 4th post on brand-short in the week of 2027-01-04; at most 3 a week']]);
  });
});
