import { describe, expect, it } from 'vitest';
import { shapeHash } from '../../src/content/shape-hash.js';
import { createPlan } from '../../src/plan/planner.js';
import { planPosts } from '../../src/plan/plan-posts.js';
import { blockForeign, exceptForeign } from '../../src/plan/foreign-owners.js';
import { livePostsById } from '../../src/plan/plan-context.js';
import { PHOTO, desired, livePost, looseChange, planInput, record, shape, state, TARGET } from '../helpers/fixtures.js';

/** Post p1 is recorded by the calendar in `clients/a` of the same repository. */
const FOREIGN = new Map([['p1', 'clients/a']]);
const applied = shape({ content: 'Launch day' });
const changesOf = (plan: { changes: { action: string; reason: string; key: string; postId: string | null }[] }) => plan.changes.map(({ action, reason, key, postId }) => ({ action, reason, key, postId }));

describe('planning beside another calendar of the repository (ForeignOwners)', () => {
  it('adopts no post another calendar records: the file is created anew, and a free twin is still adopted', () => {
    const input = planInput({ desired: [desired('launch', applied)], live: [livePost('p1', applied)] });
    expect(changesOf(createPlan(input))).toEqual([{ action: 'adopt', reason: 'unowned-match', key: 'launch', postId: 'p1' }]);
    expect(changesOf(createPlan(planInput({ desired: [desired('launch', applied)], live: [livePost('p1', applied)], foreignOwners: FOREIGN })))).toEqual([{ action: 'create', reason: 'new-file', key: 'launch', postId: null }]);
    const withFree = createPlan(planInput({ desired: [desired('launch', applied)], live: [livePost('p1', applied), livePost('p2', applied)], foreignOwners: FOREIGN }));
    expect(changesOf(withFree)).toEqual([{ action: 'adopt', reason: 'unowned-match', key: 'launch', postId: 'p2' }]);
  });

  it('takes no post another calendar records for an interrupted create: the create is resent under its own key', () => {
    const pending = { file: 'posts/launch.md', idempotencyKey: 'psync-launch', payload: { content: 'Launch day', targets: [{ socialAccountId: PHOTO }], mediaIds: [] }, shapeHash: shapeHash(applied), startedAt: '2026-01-01T00:00:00.000Z' };
    const parts = { desired: [desired('launch', applied)], state: state({ pending: { launch: pending } }), live: [livePost('p1', applied)] };
    expect(changesOf(createPlan(planInput(parts)))).toEqual([{ action: 'create', reason: 'interrupted-create', key: 'launch', postId: 'p1' }]);
    expect(changesOf(createPlan(planInput({ ...parts, foreignOwners: FOREIGN })))).toEqual([{ action: 'create', reason: 'interrupted-create', key: 'launch', postId: null }]);
  });

  it('blocks every change on a post its own state records too (a copied state), naming the other calendar; --prune deletes nothing', () => {
    const owned = state({ posts: { launch: record('p1', applied, 'posts/launch.md') } });
    const plan = planPosts(planInput({ state: owned, stateHash: 'x', live: [livePost('p1', applied)], accounts: new Map(), prune: true, timezone: 'Europe/Berlin', foreignOwners: FOREIGN }));
    expect(changesOf(plan)).toEqual([{ action: 'blocked', reason: 'other-calendar', key: 'launch', postId: 'p1' }]);
    expect(plan.changes[0]!.details[0]).toMatchObject({ code: 'other-calendar', owner: 'clients/a' });
    expect(plan.summary.delete).toBe(0);
  });

  it('lists, for adopting, only the posts no other calendar records; a post that is not listed stays unknown', () => {
    const live = livePostsById([livePost('p1', applied), livePost('p2', applied)]);
    const free = exceptForeign(live, FOREIGN);
    expect([...free.briefs.keys()]).toEqual(['p2']);
    expect(free.get('p1')).toBeUndefined();
    expect(free.get('p2')?.id).toBe('p2');
    expect(exceptForeign(live, new Map())).toBe(live);
  });

  it('keeps what a blocked change shows (the file, its old key, the desired shape, the live time, the occurrence), and nothing it did not have', () => {
    const occurrence = { of: 'launch', date: '2026-03-02' };
    const move = looseChange({ action: 'move', key: 'launch-v2', fromKey: 'launch', file: 'posts/launch-v2.md', postId: 'p1', desired: applied, liveUpdatedAt: '2026-01-01T00:00:00.000Z', occurrence, details: [] });
    expect(blockForeign(move, FOREIGN)).toStrictEqual({
      action: 'blocked',
      reason: 'other-calendar',
      key: 'launch-v2',
      file: 'posts/launch-v2.md',
      postId: 'p1',
      details: [{ code: 'other-calendar', postId: 'p1', owner: 'clients/a', key: 'launch-v2' }],
      fromKey: 'launch',
      desired: applied,
      liveUpdatedAt: '2026-01-01T00:00:00.000Z',
      occurrence,
    });
    const removed = looseChange({ action: 'delete', key: 'gone', file: null, postId: 'p1', details: [] });
    expect(blockForeign(removed, FOREIGN)).toStrictEqual({ action: 'blocked', reason: 'other-calendar', key: 'gone', file: null, postId: 'p1', details: [{ code: 'other-calendar', postId: 'p1', owner: 'clients/a', key: 'gone' }] });
  });

  it('leaves a change blocked for its own reason as it is, and a change on a post of its own', () => {
    const blocked = looseChange({ action: 'blocked', reason: 'unconfirmed-record', key: 'launch', file: 'posts/launch.md', postId: 'p1', details: [] });
    expect(blockForeign(blocked, FOREIGN)).toBe(blocked);
    const own = looseChange({ action: 'update', key: 'launch', file: 'posts/launch.md', postId: 'p2', details: [] });
    expect(blockForeign(own, FOREIGN)).toBe(own);
  });
});
