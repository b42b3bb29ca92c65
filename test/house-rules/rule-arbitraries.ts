import fc from 'fast-check';
import type { ScheduleRule } from '../../src/config/house-rule-types.js';
import type { SlotTable, WeeklySlot } from '../../src/config/slots-section.js';
import type { PostStanding, RulePost } from '../../src/house-rules/index.js';
import { formatCivilDate, formatClock, wallMinutes } from '../../src/zoned-time/index.js';
import { at, EVERYONE, PHOTO, post, SHORT, target, VIDEO } from './rule-fixtures.js';

export const ACCOUNT_IDS = [PHOTO, VIDEO, SHORT];

/** A Berlin wall time in the three weeks from Monday 2027-01-04 (DST-free) or around the March change. */
export const wallTime = fc
  .record({ base: fc.constantFrom('2027-01-04', '2027-03-22'), day: fc.integer({ min: 0, max: 20 }), quarter: fc.integer({ min: 0, max: 95 }) })
  .map(({ base, day, quarter }) => {
    const date = new Date(`${base}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() + day);
    return `${date.toISOString().slice(0, 10)} ${formatClock(quarter * 15)}`;
  })
  .filter((wall) => !wall.startsWith('2027-03-28 02:'));

const accounts = fc.subarray(ACCOUNT_IDS, { minLength: 1 });

/** Posts with distinct keys, each on one to three accounts, some settled. */
export const postsArbitrary = (options: { maxLength: number; standing?: fc.Arbitrary<PostStanding> }) =>
  fc
    .uniqueArray(fc.record({ key: fc.stringMatching(/^[a-z]{1,6}$/), when: wallTime, accounts, standing: options.standing ?? fc.constantFrom<PostStanding>('settled', 'changed') }), { selector: (p) => p.key, maxLength: options.maxLength })
    .map((drafts): RulePost[] => drafts.map(({ key, when, accounts: ids, standing }) => post(key, when, { standing, targets: ids.map((id) => target(id)) })));

const severity = fc.constantFrom<'error' | 'warning'>('error', 'warning');
const scope = fc.option(fc.subarray(ACCOUNT_IDS, { minLength: 1 }), { nil: null }).map((ids) => ({ ...EVERYONE, accounts: ids }));

/** Up to four schedule rules of any kind. */
export const scheduleRulesArbitrary = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('quietHours' as const), from: fc.integer({ min: 0, max: 95 }).map((q) => q * 15), to: fc.integer({ min: 0, max: 95 }).map((q) => q * 15) }).filter((r) => r.from !== r.to),
    fc.record({ kind: fc.constant('minGap' as const), minutes: fc.integer({ min: 1, max: 48 * 60 }) }),
    fc.record({ kind: fc.constantFrom('maxPerDay' as const, 'maxPerWeek' as const), limit: fc.integer({ min: 1, max: 4 }) }),
    fc.record({ kind: fc.constant('blackout' as const), day: fc.integer({ min: 0, max: 20 }) }).map(({ kind, day }) => {
      const date = new Date(Date.UTC(2027, 0, 4 + day));
      const civil = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
      const from = wallMinutes({ date: civil, minute: 0 });
      return { kind, periods: [{ from, to: from + 1440, label: formatCivilDate(civil) }] };
    }),
  ).chain((check) => fc.record({ severity, scope }).map(({ severity: level, scope: limits }) => ({ ...check, name: `${check.kind}-${level}`, severity: level, scope: limits }) as ScheduleRule)),
  { maxLength: 4 },
);

/** One to four weekly slots per account, for some accounts. */
export const slotTableArbitrary = fc
  .record(Object.fromEntries(ACCOUNT_IDS.map((id) => [id, fc.option(fc.uniqueArray(fc.record({ weekday: fc.integer({ min: 1, max: 7 }), minute: fc.integer({ min: 0, max: 95 }).map((q) => q * 15) }), { minLength: 1, maxLength: 4, selector: (s) => `${s.weekday} ${s.minute}` }), { nil: undefined })])))
  .map((table): SlotTable => Object.fromEntries(Object.entries(table).flatMap(([id, slots]) => (slots === undefined ? [] : [[id, [...(slots as WeeklySlot[])].sort((a, b) => a.weekday - b.weekday || a.minute - b.minute)]]))));

export { at };
