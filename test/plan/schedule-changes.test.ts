import { describe, expect, it } from 'vitest';
import type { DesiredPost } from '../../src/content/types.js';
import { withScheduleFacts } from '../../src/plan/schedule-changes.js';
import type { Change } from '../../src/plan/types.js';
import { desired, looseChange, planOf, shape } from '../helpers/fixtures.js';

const MON = '2027-01-04T08:00:00.000Z';
const FILE = 'posts/weekly.md';

function change(action: Change['action'], key: string, extra: Record<string, unknown> = {}): Change {
  return looseChange({ action, key, file: `posts/${key}.md`, postId: action === 'create' ? null : `p-${key}`, reasons: [action === 'create' ? 'new file' : `${action} because`], ...extra });
}

function slotted(key: string, source: 'recorded' | 'assigned', scheduledAt: string | null = MON): DesiredPost {
  return { ...desired(key, shape({ scheduledAt })), slot: { at: { line: 2, column: 14 }, taken: { slot: 'Mon 09:00', wall: '2027-01-04 09:00 (Europe/Berlin)', source } } };
}

function occurrence(date: string): DesiredPost {
  return { ...desired(`weekly@${date}`, shape({ scheduledAt: `${date}T08:00:00.000Z` }), { file: FILE }), occurrence: { of: 'weekly', date } };
}

const owned = (key: string, extra: Record<string, unknown> = {}) => change('delete', key, { file: FILE, reason: 'file-removed', reasons: ['removed'], ...extra });

describe('withScheduleFacts: the slot and the repeat behind each change', () => {
  it('returns the plan as it is when no post has a slot or an occurrence', () => {
    const plan = planOf([change('create', 'a'), change('delete', 'weekly@2027-01-04', { file: FILE }), change('noop', 'b')]);
    expect(withScheduleFacts(plan, [desired('a'), desired('b')])).toBe(plan);
  });

  it('tells why an executed change got its time: from a new slot, or kept from the last apply', () => {
    const plan = planOf([change('create', 'new'), change('update', 'kept')]);
    const result = withScheduleFacts(plan, [slotted('new', 'assigned'), slotted('kept', 'recorded')]);
    expect(result.changes.map((c) => [c.key, c.reasons, c.slot])).toEqual([
      ['new', ['new file', 'time from slot Mon 09:00: 2027-01-04 09:00 (Europe/Berlin), the earliest free one'], { slot: 'Mon 09:00', scheduledAt: MON, source: 'assigned' }],
      ['kept', ['update because', 'time from slot Mon 09:00: 2027-01-04 09:00 (Europe/Berlin), kept from the last apply'], { slot: 'Mon 09:00', scheduledAt: MON, source: 'recorded' }],
    ]);
  });

  it('records the slot of a noop or a blocked post without a reason about it: nothing is sent', () => {
    const plan = planOf([change('noop', 'same'), change('blocked', 'held')]);
    const result = withScheduleFacts(plan, [slotted('same', 'recorded'), slotted('held', 'assigned')]);
    expect(result.changes.map((c) => [c.key, c.reasons, c.slot?.source])).toEqual([
      ['same', ['noop because'], 'recorded'],
      ['held', ['blocked because'], 'assigned'],
    ]);
  });

  it('gives a post without a time no slot fact', () => {
    const result = withScheduleFacts(planOf([change('create', 'draft')]), [slotted('draft', 'assigned', null)]);
    expect(result.changes[0]!.slot).toBeUndefined();
  });

  it('names the repeat of a new occurrence, and leaves its reasons as the planner gave them', () => {
    const plan = planOf([change('create', 'weekly@2027-01-11', { file: FILE, reason: 'new-occurrence', reasons: ['new occurrence (2027-01-11)'] }), change('create', 'fresh')]);
    const result = withScheduleFacts(plan, [occurrence('2027-01-11'), slotted('fresh', 'assigned')]);
    expect(result.changes.map((c) => [c.key, c.reason, c.reasons[0], c.occurrence])).toEqual([
      ['weekly@2027-01-11', 'new-occurrence', 'new occurrence (2027-01-11)', { of: 'weekly', date: '2027-01-11' }],
      ['fresh', 'new-file', 'new file', undefined],
    ]);
  });

  it('keeps every other reason of an occurrence\'s change', () => {
    const update = change('update', 'weekly@2027-01-11', { file: FILE, reasons: ['changed in posts/weekly.md: content'] });
    const result = withScheduleFacts(planOf([update]), [occurrence('2027-01-11')]);
    expect(result.changes[0]!.reasons).toEqual(['changed in posts/weekly.md: content']);
  });

  it('says a delete, an unschedule or a kept draft is an occurrence the repeat no longer has, and what --prune does', () => {
    const plan = planOf([change('create', 'weekly@2027-01-11', { file: FILE }), owned('weekly@2027-03-01'), owned('weekly@2027-03-08', { action: 'unschedule' }), owned('weekly@2027-03-15', { action: 'noop', liveUpdatedAt: '2026-01-01T00:00:00.000Z' })]);
    const result = withScheduleFacts(plan, [occurrence('2027-01-11')]);
    expect(result.changes.slice(1).map((c) => c.reason)).toEqual(['occurrence-removed', 'occurrence-removed', 'occurrence-removed']);
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
      owned('weekly@2027-03-03', { reason: 'gone-on-remote', stateOnly: true }), // already gone on the remote: its record is forgotten
      owned('weekly@2027-03-04-old'), // only starts like an occurrence
      owned('weekly'), // not an occurrence key
      owned('x@2027-03-05'), // another repeat's name
    ];
    const plan = planOf([change('create', 'weekly@2027-01-11', { file: FILE }), ...others]);
    expect(withScheduleFacts(plan, [occurrence('2027-01-11')]).changes.slice(1)).toEqual(others);
  });

  it('leaves a held occurrence of a repeat blocked for its own reasons: it is not a surplus one', () => {
    const held = change('blocked', 'weekly@2027-01-18', { file: FILE, reasons: ['rule `nights`: in quiet hours'] });
    const plan = planOf([change('create', 'weekly@2027-01-11', { file: FILE }), held]);
    expect(withScheduleFacts(plan, [occurrence('2027-01-11')]).changes[1]).toEqual(held);
  });
});
