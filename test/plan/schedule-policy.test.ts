import { describe, expect, it } from 'vitest';
import type { DesiredPost } from '../../src/content/types.js';
import { withScheduleFacts } from '../../src/plan/schedule-changes.js';
import { createPlan } from '../../src/plan/planner.js';
import { at, ZONE } from '../house-rules/rule-fixtures.js';
import { decide } from './schedule-policy-fixtures.js';
import { desired, livePost, planInput, record, shape, state } from '../helpers/fixtures.js';


function post(key: string, when: string | null): DesiredPost {
  const made = desired(key, shape({ scheduledAt: when === null ? null : at(when) }));
  return { ...made, targetLabels: ['photo'], locations: { targets: [null], media: [], body: { line: 5, column: 1 }, schedule: { line: 2, column: 14 } } };
}

function slotPost(key: string): DesiredPost {
  return { ...post(key, null), slot: { at: { line: 2, column: 14 } } };
}


describe('decideSchedule', () => {
  it('gives next-slot posts the earliest free slots in key order, and keeps back only the post that breaks an error rule', () => {
    const result = decide({ posts: [slotPost('b'), post('fixed', '2027-01-04 09:00'), post('late', '2027-01-05 23:30'), slotPost('a')] });
    expect(result.posts.map((p) => [p.key, p.shape.scheduledAt, p.slot?.taken])).toEqual([
      ['b', at('2027-01-11 09:00'), { slot: 'Mon 09:00', wall: 'Mon 11 Jan 2027, 09:00 (+01:00)', source: 'assigned' }],
      ['fixed', at('2027-01-04 09:00'), undefined],
      ['a', at('2027-01-07 17:30'), { slot: 'Thu 17:30', wall: 'Thu 7 Jan 2027, 17:30 (+01:00)', source: 'assigned' }],
    ]);
    expect(result.posts[0]!.shapeHash).not.toBe(slotPost('b').shapeHash);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'rule-quiet-hours', rule: 'nights', key: 'late', file: 'posts/late.md', line: 2, column: 14, message: 'rule `nights`: 23:30 is in the quiet hours 22:00–07:00 (photo)' }),
    ]);
  });

  it('keeps the slot a post was applied with: a new post with an earlier key never moves it', () => {
    const applied = { ...record('p-b', shape({ scheduledAt: at('2027-01-04 09:00') }), 'posts/b.md'), slotAt: at('2027-01-04 09:00') };
    const result = decide({ posts: [slotPost('a'), slotPost('b')], state: state({ posts: { b: applied } }) });
    expect(result.posts.map((p) => [p.key, p.shape.scheduledAt, p.slot?.taken?.source])).toEqual([
      ['a', at('2027-01-07 17:30'), 'assigned'],
      ['b', at('2027-01-04 09:00'), 'recorded'],
    ]);
  });

  it('reports the new post, not the applied one, when a fixed time clashes; an owned post of a broken file still counts', () => {
    const appliedShape = shape({ scheduledAt: at('2027-01-04 09:00') });
    const applied = desired('applied', appliedShape);
    const gone = livePost('p-gone', shape({ scheduledAt: at('2027-01-06 12:00') }), { status: 'scheduled' });
    const result = decide({
      posts: [{ ...applied, locations: post('x', null).locations! }, post('new', '2027-01-04 10:00'), post('near-gone', '2027-01-06 13:00')],
      state: state({ posts: { applied: record('p-applied', appliedShape, 'posts/applied.md'), gone: record('p-gone', gone as never, 'posts/gone.md') } }),
      live: { get: (id) => (id === 'p-gone' ? gone : undefined), briefs: new Map() },
      brokenFiles: new Set(['posts/gone.md']),
    });
    expect(result.posts.map((p) => p.key)).toEqual(['applied']);
    const violations = result.diagnostics as (typeof result.diagnostics[number] & { key?: string; clashesWith?: { key?: string }[] })[];
    expect(violations.map((v) => [v.key, v.clashesWith?.map((c) => c.key)])).toEqual([
      ['near-gone', ['gone']],
      ['new', ['applied']],
    ]);
  });

  it('never lets a renamed post clash with its own former key, nor counts an owned post the remote no longer shows, while a file is broken', () => {
    const sixth = shape({ scheduledAt: at('2027-01-06 12:00') });
    const old = livePost('p-old', sixth, { status: 'scheduled' });
    const result = decide({
      posts: [post('renamed', '2027-01-06 12:00')],
      state: state({ posts: { old: record('p-old', sixth, 'posts/old.md'), vanished: record('p-vanished', shape({ scheduledAt: at('2027-01-06 12:30') }), 'posts/vanished.md') } }),
      live: { get: (id) => (id === 'p-old' ? old : undefined), briefs: new Map() },
      brokenFiles: new Set(['posts/broken.md']),
    });
    expect(result.posts.map((p) => p.key)).toEqual(['renamed']);
    expect(result.diagnostics).toEqual([]);
  });

  it('makes no slot up where the accounts have none: an error, and the post is kept back', () => {
    const result = decide({ config: { rules: [], slots: {}, timezone: ZONE, accounts: {} }, posts: [slotPost('a')] });
    expect([result.posts, result.diagnostics.map((d) => [d.code, d.line, d.column])]).toEqual([[], [['no-slots', 2, 14]]]);
  });
});

describe('withScheduleFacts', () => {
  it('tells the slot and the occurrence in the changes, and why a shrunk repeat deletes', () => {
    const slotted = { ...post('s', '2027-01-04 09:00'), slot: { taken: { slot: 'Mon 09:00', wall: '2027-01-04 09:00 (Europe/Berlin)', source: 'assigned' as const } } };
    const occurrence = { ...desired('r@2027-01-18', shape({ scheduledAt: at('2027-01-18 09:00') }), { file: 'posts/r.md' }), occurrence: { of: 'r', date: '2027-01-18' } };
    const section = state({ posts: { 'r@2027-02-01': record('p-old', shape(), 'posts/r.md') } });
    const plan = withScheduleFacts(createPlan(planInput({ desired: [slotted, occurrence], state: section, live: [livePost('p-old', shape())] })), [slotted, occurrence]);
    expect(plan.changes.map((change) => [change.action, change.key, change.details, change.slot, change.occurrence])).toEqual([
      ['create', 'r@2027-01-18', [{ code: 'new-occurrence', date: '2027-01-18' }], undefined, { of: 'r', date: '2027-01-18' }],
      ['create', 's', [{ code: 'new-file' }, { code: 'slot', slot: 'Mon 09:00', wall: '2027-01-04 09:00 (Europe/Berlin)', source: 'assigned' }], { slot: 'Mon 09:00', scheduledAt: at('2027-01-04 09:00'), source: 'assigned' }, undefined],
      ['noop', 'r@2027-02-01', [{ code: 'occurrence-removed', date: '2027-02-01', file: 'posts/r.md', outcome: 'kept-as-draft' }], undefined, { of: 'r', date: '2027-02-01' }],
    ]);
  });
});
