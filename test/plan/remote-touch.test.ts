import { describe, expect, it } from 'vitest';
import { createPlan } from '../../src/plan/planner.js';
import { PHOTO, desired, livePost, planInput, record, shape, state } from '../helpers/fixtures.js';

/**
 * The remote answers a post with a new `updatedAt` though nothing postsync compares changed: a
 * touch in the web app, a re-save, a service-side field. The state still holds the old one.
 */
const applied = shape({ content: 'Launch day', scheduledAt: '2026-12-01T08:00:00.000Z', targets: [{ socialAccountId: PHOTO, options: { shareToFeed: true } }] });
const owned = state({ posts: { launch: record('p1', applied, 'posts/launch.md') } });
const TOUCHED = '2026-03-05T10:00:00.000Z';

describe('createPlan: a remote post touched without a change', () => {
  it('is a noop with the new updatedAt, never a move onto itself', () => {
    const touched = livePost('p1', applied, { updatedAt: TOUCHED });
    const plan = createPlan(planInput({ desired: [desired('launch', applied)], state: owned, live: [touched] }));
    expect(plan.changes).toEqual([{ action: 'noop', reason: 'up-to-date', key: 'launch', file: 'posts/launch.md', postId: 'p1', liveUpdatedAt: TOUCHED, details: [{ code: 'up-to-date' }] }]);
  });

  it('is a noop when the service answers the schedule in another offset and precision, and with response-only options', () => {
    const touched = livePost('p1', applied, { updatedAt: TOUCHED, scheduledAt: '2026-12-01T09:00:00+01:00' });
    expect(touched.targets[0]!.options).toMatchObject({ vidAPrivacy: 'public' });
    const plan = createPlan(planInput({ desired: [desired('launch', applied)], state: owned, live: [touched] }));
    expect(plan.changes.map((change) => change.action)).toEqual(['noop']);
  });

  it('is a move of the file name alone when the file also moved (same key)', () => {
    const touched = livePost('p1', applied, { updatedAt: TOUCHED });
    const plan = createPlan(planInput({ desired: [desired('launch', applied, { file: 'posts/2026/launch.md' })], state: owned, live: [touched] }));
    expect(plan.changes).toEqual([
      { action: 'move', reason: 'renamed', key: 'launch', fromKey: 'launch', file: 'posts/2026/launch.md', postId: 'p1', liveUpdatedAt: TOUCHED, details: [{ code: 'renamed', from: 'posts/launch.md', to: 'posts/2026/launch.md' }] },
    ]);
  });

  it('is still an update when the file changed too', () => {
    const touched = livePost('p1', applied, { updatedAt: TOUCHED });
    const edited = shape({ ...applied, content: 'Launch day!' });
    const plan = createPlan(planInput({ desired: [desired('launch', edited)], state: owned, live: [touched] }));
    expect(plan.changes[0]).toMatchObject({ action: 'update', liveUpdatedAt: TOUCHED, details: [{ code: 'file-changed', file: 'posts/launch.md', fields: ['content'] }] });
  });
});
