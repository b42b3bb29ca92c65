import { describe, expect, it } from 'vitest';
import type { DesiredPost } from '../../src/content/types.js';
import { withCalendarFacts } from '../../src/plan/calendar-changes.js';
import type { Change } from '../../src/plan/types.js';
import { desired, planOf, shape } from './fixtures.js';

const MON = '2027-01-04T08:00:00.000Z';
const FILE = 'posts/weekly.md';

function change(action: Change['action'], key: string, extra: Partial<Change> = {}): Change {
  return { action, key, file: `posts/${key}.md`, postId: action === 'create' ? null : `p-${key}`, reasons: [action === 'create' ? 'new file' : `${action} because`], ...extra };
}

function slotted(key: string, source: 'recorded' | 'assigned', scheduledAt: string | null = MON): DesiredPost {
  return { ...desired(key, shape({ scheduledAt })), slot: { at: { line: 2, column: 14 }, taken: { slot: 'Mon 09:00', wall: '2027-01-04 09:00 (Europe/Berlin)', source } } };
}

function occurrence(date: string): DesiredPost {
  return { ...desired(`weekly@${date}`, shape({ scheduledAt: `${date}T08:00:00.000Z` }), { file: FILE }), occurrence: { of: 'weekly', date } };
}

const owned = (key: string, extra: Partial<Change> = {}) => change('delete', key, { file: FILE, reasons: ['removed'], ...extra });

describe('withCalendarFacts: the slot and the repeat behind each change', () => {
  it('returns the plan as it is when no post has a slot or an occurrence', () => {
    const plan = planOf([change('create', 'a'), change('delete', 'weekly@2027-01-04', { file: FILE }), change('noop', 'b')]);
    expect(withCalendarFacts(plan, [desired('a'), desired('b')])).toBe(plan);
  });

  it('tells why an executed change got its time: from a new slot, or kept from the last apply', () => {
    const plan = planOf([change('create', 'new'), change('update', 'kept')]);
    const result = withCalendarFacts(plan, [slotted('new', 'assigned'), slotted('kept', 'recorded')]);
    expect(result.changes.map((c) => [c.key, c.reasons, c.slot])).toEqual([
      ['new', ['new file', 'time from slot Mon 09:00: 2027-01-04 09:00 (Europe/Berlin), the earliest free one'], { slot: 'Mon 09:00', scheduledAt: MON, source: 'assigned' }],
      ['kept', ['update because', 'time from slot Mon 09:00: 2027-01-04 09:00 (Europe/Berlin), kept from the last apply'], { slot: 'Mon 09:00', scheduledAt: MON, source: 'recorded' }],
    ]);
  });

  it('records the slot of a noop or a blocked post without a reason about it: nothing is sent', () => {
    const plan = planOf([change('noop', 'same'), change('blocked', 'held')]);
    const result = withCalendarFacts(plan, [slotted('same', 'recorded'), slotted('held', 'assigned')]);
    expect(result.changes.map((c) => [c.key, c.reasons, c.slot?.source])).toEqual([
      ['same', ['noop because'], 'recorded'],
      ['held', ['blocked because'], 'assigned'],
    ]);
  });

  it('gives a post without a time no slot fact', () => {
    const result = withCalendarFacts(planOf([change('create', 'draft')]), [slotted('draft', 'assigned', null)]);
    expect(result.changes[0]!.slot).toBeUndefined();
  });

  it('calls a new occurrence of an old file a new occurrence, and names its repeat; a slot post keeps "new file"', () => {
    const plan = planOf([change('create', 'weekly@2027-01-11', { file: FILE }), change('create', 'fresh')]);
    const result = withCalendarFacts(plan, [occurrence('2027-01-11'), slotted('fresh', 'assigned')]);
    expect(result.changes.map((c) => [c.key, c.reasons[0], c.occurrence])).toEqual([
      ['weekly@2027-01-11', 'new occurrence (2027-01-11)', { of: 'weekly', date: '2027-01-11' }],
      ['fresh', 'new file', undefined],
    ]);
  });

  it('keeps every other reason of an occurrence\'s change', () => {
    const update = change('update', 'weekly@2027-01-11', { file: FILE, reasons: ['changed in posts/weekly.md: content'] });
    const result = withCalendarFacts(planOf([update]), [occurrence('2027-01-11')]);
    expect(result.changes[0]!.reasons).toEqual(['changed in posts/weekly.md: content']);
  });

  it('says a delete, an unschedule or a kept draft is an occurrence the repeat no longer has, and what --prune does', () => {
    const plan = planOf([change('create', 'weekly@2027-01-11', { file: FILE }), owned('weekly@2027-03-01'), owned('weekly@2027-03-08', { action: 'unschedule' }), owned('weekly@2027-03-15', { action: 'noop' })]);
    const result = withCalendarFacts(plan, [occurrence('2027-01-11')]);
    expect(result.changes.slice(1).map((c) => [c.reasons, c.occurrence])).toEqual([
      [['2027-03-01 is no longer an occurrence of the repeat in posts/weekly.md'], { of: 'weekly', date: '2027-03-01' }],
      [['2027-03-08 is no longer an occurrence of the repeat in posts/weekly.md: it goes back to draft on the remote (--prune deletes it)'], { of: 'weekly', date: '2027-03-08' }],
      [['2027-03-15 is no longer an occurrence of the repeat in posts/weekly.md: it stays a draft on the remote (--prune deletes it)'], { of: 'weekly', date: '2027-03-15' }],
    ]);
  });

  it('leaves alone deletes that are not a surplus occurrence of a repeat in the same file', () => {
    const others = [
      owned('weekly@2027-03-01', { file: 'posts/other.md' }), // another file's post
      owned('weekly@2027-03-02', { file: null }), // no file known
      owned('weekly@2027-03-03', { stateOnly: true }), // already gone on the remote: its record is forgotten
      owned('weekly@2027-03-04-old'), // only starts like an occurrence
      owned('weekly'), // not an occurrence key
      owned('x@2027-03-05'), // another repeat's name
    ];
    const plan = planOf([change('create', 'weekly@2027-01-11', { file: FILE }), ...others]);
    expect(withCalendarFacts(plan, [occurrence('2027-01-11')]).changes.slice(1)).toEqual(others);
  });

  it('leaves a held occurrence of a repeat blocked for its own reasons: it is not a surplus one', () => {
    const held = change('blocked', 'weekly@2027-01-18', { file: FILE, reasons: ['rule `nights`: in quiet hours'] });
    const plan = planOf([change('create', 'weekly@2027-01-11', { file: FILE }), held]);
    expect(withCalendarFacts(plan, [occurrence('2027-01-11')]).changes[1]).toEqual(held);
  });
});
