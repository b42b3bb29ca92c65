import { describe, expect, it } from 'vitest';
import type { DesiredPost } from '../../src/content/types.js';
import { withScheduleFacts } from '../../src/plan/schedule-changes.js';
import type { Change } from '../../src/plan/types.js';
import { createPlan } from '../../src/plan/planner.js';
import type { ReasonDetail } from '../../src/plan/reason-details.js';
import { desired, livePost, looseChange, planInput, planOf, record, shape, state } from '../helpers/fixtures.js';

const MON = '2027-01-04T08:00:00.000Z';
const FILE = 'posts/weekly.md';

function change(action: Change['action'], key: string, extra: Record<string, unknown> = {}): Change {
  return looseChange({ action, key, file: `posts/${key}.md`, postId: action === 'create' ? null : `p-${key}`, details: [action === 'create' ? { code: 'new-file' } : { code: 'up-to-date' }], ...extra });
}

function slotted(key: string, source: 'recorded' | 'assigned', scheduledAt: string | null = MON): DesiredPost {
  return { ...desired(key, shape({ scheduledAt })), slot: { at: { line: 2, column: 14 }, taken: { slot: 'Mon 09:00', wall: '2027-01-04 09:00 (Europe/Berlin)', source } } };
}

function occurrence(date: string): DesiredPost {
  return { ...desired(`weekly@${date}`, shape({ scheduledAt: `${date}T08:00:00.000Z` }), { file: FILE }), occurrence: { of: 'weekly', date } };
}


describe('withScheduleFacts: the slot and the repeat behind each change', () => {
  it('returns the plan as it is when no post has a slot or an occurrence', () => {
    const plan = planOf([change('create', 'a'), change('delete', 'weekly@2027-01-04', { file: FILE }), change('noop', 'b')]);
    expect(withScheduleFacts(plan, [desired('a'), desired('b')])).toBe(plan);
  });

  it('tells why an executed change got its time: from a new slot, or kept from the last apply', () => {
    const plan = planOf([change('create', 'new'), change('update', 'kept')]);
    const result = withScheduleFacts(plan, [slotted('new', 'assigned'), slotted('kept', 'recorded')]);
    const slot = (source: 'recorded' | 'assigned'): ReasonDetail => ({ code: 'slot', slot: 'Mon 09:00', wall: '2027-01-04 09:00 (Europe/Berlin)', source });
    expect(result.changes.map((c) => [c.key, c.details, c.slot])).toEqual([
      ['new', [{ code: 'new-file' }, slot('assigned')], { slot: 'Mon 09:00', scheduledAt: MON, source: 'assigned' }],
      ['kept', [{ code: 'up-to-date' }, slot('recorded')], { slot: 'Mon 09:00', scheduledAt: MON, source: 'recorded' }],
    ]);
  });

  it('records the slot of a noop or a blocked post without a reason about it: nothing is sent', () => {
    const plan = planOf([change('noop', 'same'), change('blocked', 'held')]);
    const result = withScheduleFacts(plan, [slotted('same', 'recorded'), slotted('held', 'assigned')]);
    expect(result.changes.map((c) => [c.key, c.details, c.slot?.source])).toEqual([
      ['same', [{ code: 'up-to-date' }], 'recorded'],
      ['held', [{ code: 'up-to-date' }], 'assigned'],
    ]);
  });

  it('gives a post without a time no slot fact', () => {
    const result = withScheduleFacts(planOf([change('create', 'draft')]), [slotted('draft', 'assigned', null)]);
    expect(result.changes[0]!.slot).toBeUndefined();
  });

  it('names the repeat of a new occurrence, and leaves its details as the planner gave them', () => {
    const plan = planOf([change('create', 'weekly@2027-01-11', { file: FILE, reason: 'new-occurrence', details: [{ code: 'new-occurrence', date: '2027-01-11' }] }), change('create', 'fresh')]);
    const result = withScheduleFacts(plan, [occurrence('2027-01-11'), slotted('fresh', 'assigned')]);
    expect(result.changes.map((c) => [c.key, c.reason, c.details[0], c.occurrence])).toEqual([
      ['weekly@2027-01-11', 'new-occurrence', { code: 'new-occurrence', date: '2027-01-11' }, { of: 'weekly', date: '2027-01-11' }],
      ['fresh', 'new-file', { code: 'new-file' }, undefined],
    ]);
  });

  it('keeps every other detail of an occurrence\'s change', () => {
    const details: ReasonDetail[] = [{ code: 'file-changed', file: FILE, fields: ['content'] }];
    const update = change('update', 'weekly@2027-01-11', { file: FILE, details });
    const result = withScheduleFacts(planOf([update]), [occurrence('2027-01-11')]);
    expect(result.changes[0]!.details).toEqual(details);
  });

  it('leaves a held occurrence of a repeat blocked for its own reasons: it is not a surplus one', () => {
    const held = change('blocked', 'weekly@2027-01-18', { file: FILE, reason: 'held-by-rule', details: [{ code: 'held-by-rule', message: 'rule `nights`: in quiet hours', count: 1, namesRule: true }] });
    const plan = planOf([change('create', 'weekly@2027-01-11', { file: FILE }), held]);
    expect(withScheduleFacts(plan, [occurrence('2027-01-11')]).changes[1]).toEqual(held);
  });
});

describe('createPlan: an owned occurrence its repeat no longer has', () => {
  const weekly = (date: string) => ({ [`weekly@${date}`]: record(`p-${date}`, shape(), FILE) });
  const scheduled = (date: string) => livePost(`p-${date}`, shape({ scheduledAt: `${date}T08:00:00.000Z` }));

  it('says a delete, an unschedule or a kept draft is an occurrence the repeat no longer has, and what --prune does', () => {
    const section = state({ posts: { ...weekly('2027-03-01'), ...weekly('2027-03-08') } });
    const live = [livePost('p-2027-03-01', shape()), scheduled('2027-03-08')];
    const kept = createPlan(planInput({ desired: [occurrence('2027-01-11')], state: section, live }));
    const pruned = createPlan(planInput({ desired: [occurrence('2027-01-11')], state: section, live, prune: true }));
    const surplus = (changes: readonly Change[]) => changes.filter((c) => c.action !== 'create').map((c) => [c.action, c.reason, c.details, c.occurrence]);
    const gone = (date: string, outcome: string) => [{ code: 'occurrence-removed', date, file: FILE, outcome }];
    expect(surplus(kept.changes)).toEqual([
      ['unschedule', 'occurrence-removed', gone('2027-03-08', 'back-to-draft'), { of: 'weekly', date: '2027-03-08' }],
      ['noop', 'occurrence-removed', gone('2027-03-01', 'kept-as-draft'), { of: 'weekly', date: '2027-03-01' }],
    ]);
    expect(surplus(pruned.changes)).toEqual([
      ['delete', 'occurrence-removed', gone('2027-03-01', 'deleted'), { of: 'weekly', date: '2027-03-01' }],
      ['delete', 'occurrence-removed', gone('2027-03-08', 'deleted'), { of: 'weekly', date: '2027-03-08' }],
    ]);
  });

  it('keeps a published occurrence as it is, saying why, with the code of a published post', () => {
    const plan = createPlan(planInput({ desired: [occurrence('2027-01-11')], state: state({ posts: weekly('2027-03-01') }), live: [livePost('p-2027-03-01', shape(), { status: 'published' })] }));
    expect(plan.changes[1]).toMatchObject({ action: 'noop', reason: 'published-kept', details: [{ code: 'occurrence-removed', date: '2027-03-01', file: FILE, outcome: 'published-kept' }], occurrence: { of: 'weekly', date: '2027-03-01' } });
  });

  it('says an interrupted create of a surplus occurrence is one', () => {
    const pending = { file: FILE, idempotencyKey: 'psync-w', payload: { content: 'x', targets: [], mediaIds: [] }, shapeHash: 'h', startedAt: '2026-01-01T00:00:00.000Z' };
    const plan = createPlan(planInput({ desired: [occurrence('2027-01-11')], state: state({ pending: { 'weekly@2027-03-01': pending } }) }));
    expect(plan.changes[1]).toMatchObject({ action: 'unschedule', reason: 'occurrence-removed', resumesPending: true, details: [{ code: 'occurrence-removed', date: '2027-03-01', file: FILE, outcome: 'back-to-draft' }] });
  });

  it('leaves alone removed posts that are not a surplus occurrence of a repeat in the same file', () => {
    const others = {
      'weekly@2027-03-01': record('p1', shape(), 'posts/other.md'), // another file's post
      'weekly@2027-03-04-old': record('p2', shape(), FILE), // only starts like an occurrence
      weekly: record('p3', shape(), FILE), // not an occurrence key
      'x@2027-03-05': record('p4', shape(), FILE), // another repeat's name
    };
    const live = ['p1', 'p2', 'p3', 'p4'].map((id) => livePost(id, shape()));
    const plan = createPlan(planInput({ desired: [occurrence('2027-01-11')], state: state({ posts: { ...others, ...weekly('2027-03-03') } }), live }));
    // weekly@2027-03-03 is gone on the remote: its record is forgotten, whatever the repeat says.
    expect(plan.changes.filter((c) => c.action !== 'create').map((c) => [c.key, c.reason, c.occurrence])).toEqual([
      ['weekly@2027-03-03', 'gone-on-remote', undefined],
      ['weekly', 'file-removed', undefined],
      ['weekly@2027-03-01', 'file-removed', undefined],
      ['weekly@2027-03-04-old', 'file-removed', undefined],
      ['x@2027-03-05', 'file-removed', undefined],
    ]);
  });
});
