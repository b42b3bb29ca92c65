import { describe, expect, it } from 'vitest';
import type { MinGapRule, QuietHoursRule } from '../../src/config/house-rule-types.js';
import { parseSlot, type SlotTable } from '../../src/config/slots-section.js';
import { assignSlots, type AssignSlotsInput, type SlotRequest } from '../../src/slots/index.js';
import { ACCOUNTS, at, PHOTO, post, rule, SHORT, target, VIDEO, ZONE } from '../house-rules/rule-fixtures.js';

const table = (entries: Record<string, string[]>): SlotTable => Object.fromEntries(Object.entries(entries).map(([id, slots]) => [id, slots.flatMap((s) => parseSlot(s)!)]));
const SLOTS = table({ [PHOTO]: ['Mon 09:00', 'Thu 17:30'], [SHORT]: ['daily 12:00'], [VIDEO]: ['Mon 09:00'] });
const LABELS: Record<string, string> = { [PHOTO]: 'brand-photo', [VIDEO]: 'brand-video', [SHORT]: 'brand-short' };

function request(key: string, accountIds: string[] = [PHOTO]): SlotRequest {
  return { key, file: `posts/${key}.md`, scheduleAt: { line: 2, column: 14 }, accountIds, labels: accountIds.map((id) => LABELS[id]!) };
}

function assign(input: Partial<AssignSlotsInput> & Pick<AssignSlotsInput, 'requests'>) {
  // Sunday 2027-01-03, noon in Berlin.
  return assignSlots({ recorded: new Map(), posts: [], slots: SLOTS, rules: [], timezone: ZONE, accounts: ACCOUNTS, now: at('2027-01-03 12:00'), ...input });
}

describe('assignSlots', () => {
  it('gives posts, in key order, the earliest free slots after now on the project clock', () => {
    const result = assign({ requests: [request('b'), request('a'), request('c')] });
    expect(result).toEqual({
      assignments: [
        { key: 'a', scheduledAt: at('2027-01-04 09:00'), slot: 'Mon 09:00', source: 'assigned' },
        { key: 'b', scheduledAt: at('2027-01-07 17:30'), slot: 'Thu 17:30', source: 'assigned' },
        { key: 'c', scheduledAt: at('2027-01-11 09:00'), slot: 'Mon 09:00', source: 'assigned' },
      ],
      diagnostics: [],
    });
  });

  it('skips slots held by posts with a time of their own, and slots where a rule would break', () => {
    const gap = rule<MinGapRule>({ kind: 'minGap', name: 'gap', minutes: 3 * 60 });
    const posts = [post('fixed', '2027-01-04 09:00'), post('near', '2027-01-07 15:00')];
    expect(assign({ requests: [request('a')], posts, rules: [gap] }).assignments).toEqual([{ key: 'a', scheduledAt: at('2027-01-11 09:00'), slot: 'Mon 09:00', source: 'assigned' }]);
    const nights = rule<QuietHoursRule>({ kind: 'quietHours', name: 'nights', from: 17 * 60, to: 7 * 60 });
    expect(assign({ requests: [request('a'), request('b')], rules: [nights] }).assignments.map((a) => a.scheduledAt)).toEqual([at('2027-01-04 09:00'), at('2027-01-11 09:00')]);
  });

  it('keeps a recorded slot, even one that has passed, and gives up one no longer declared, with a warning', () => {
    const recorded = new Map([
      ['kept', at('2027-01-07 17:30')],
      ['past', at('2026-12-31 17:30')],
      ['dropped', at('2027-01-05 09:00')],
    ]);
    const result = assign({ requests: [request('new'), request('kept'), request('past'), request('dropped')], recorded });
    expect(result.assignments).toEqual([
      { key: 'dropped', scheduledAt: at('2027-01-04 09:00'), slot: 'Mon 09:00', source: 'assigned' },
      { key: 'kept', scheduledAt: at('2027-01-07 17:30'), slot: 'Thu 17:30', source: 'recorded' },
      { key: 'new', scheduledAt: at('2027-01-11 09:00'), slot: 'Mon 09:00', source: 'assigned' },
      { key: 'past', scheduledAt: at('2026-12-31 17:30'), slot: 'Thu 17:30', source: 'recorded' },
    ]);
    expect(result.diagnostics).toEqual([
      { severity: 'warning', code: 'slot-given-up', message: 'the slot this post had (Tue 5 Jan 2027, 09:00 (+01:00)) is no longer in `slots:`; it takes the next free one', file: 'posts/dropped.md', line: 2, column: 14, hint: 'Write the time in `scheduledAt` to keep a time of your own.' },
    ]);
  });

  it('uses only the slots all the accounts with slots share', () => {
    expect(assign({ requests: [request('both', [PHOTO, VIDEO])] }).assignments).toMatchObject([{ scheduledAt: at('2027-01-04 09:00'), slot: 'Mon 09:00' }]);
    const none = assign({ requests: [request('apart', [PHOTO, SHORT])] });
    expect(none.assignments).toEqual([]);
    expect(none.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'no-free-slot',
        message: 'no slot shared by brand-photo, brand-short in the next 366 days is free and breaks no rule',
        file: 'posts/apart.md',
        key: 'apart',
        line: 2,
        column: 14,
        expected: 'a free slot',
        found: '`scheduledAt: next-slot`',
        hint: 'Give these accounts a slot in common, or split the post by account.',
      },
    ]);
  });

  it('says when the accounts have no slots at all', () => {
    const result = assign({ requests: [request('x', [PHOTO])], slots: {} });
    expect(result.diagnostics).toMatchObject([{ code: 'no-slots', message: '`scheduledAt: next-slot` needs slots, and brand-photo has none' }]);
  });

  it('keeps slots at their wall time across DST and skips one that does not exist that day', () => {
    const early = table({ [PHOTO]: ['Sun 02:30', 'Sun 09:00'] });
    const result = assign({ requests: [request('a'), request('b'), request('c')], slots: early, now: at('2027-03-27 12:00'), posts: [post('fixed', '2027-04-04 09:00', { targets: [target(PHOTO)] })] });
    // 2027-03-28: Berlin moves from 02:00 to 03:00, so there is no 02:30 that Sunday.
    expect(result.assignments.map((a) => a.scheduledAt)).toEqual(['2027-03-28T07:00:00.000Z', '2027-04-04T00:30:00.000Z', '2027-04-11T00:30:00.000Z']);
  });
});
