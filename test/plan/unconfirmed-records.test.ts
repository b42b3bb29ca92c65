import { describe, expect, it } from 'vitest';
import { planPosts } from '../../src/plan/plan-posts.js';
import { NONE_UNCONFIRMED } from '../../src/plan/unconfirmed-records.js';
import type { UnconfirmedRecords } from '../../src/state/types.js';
import type { Post } from '../../src/api/types.js';
import type { ProjectState } from '../../src/state/types.js';
import type { DesiredPost } from '../../src/content/types.js';
import { SHA_A, desired, livePost, mediaState, planInput, record, shape, state, PHOTO, TARGET } from '../helpers/fixtures.js';

const applied = shape({ content: 'As applied' });
const edited = shape({ content: 'Edited' });

function plan(options: { posts: DesiredPost[]; section: ProjectState; live: Post[]; unconfirmed: Partial<UnconfirmedRecords>; prune?: boolean }) {
  return planPosts(planInput({ desired: options.posts, state: options.section, live: options.live, unconfirmed: { ...NONE_UNCONFIRMED, ...options.unconfirmed }, prune: options.prune ?? true }));
}
const actions = (planned: ReturnType<typeof plan>) => planned.changes.map((change) => [change.action, change.key, change.reason]);

describe('planPosts with records that carry no valid seal', () => {
  const owned = state({ posts: { launch: record('p1', applied, 'posts/launch.md') } });

  it('blocks the update, the noop and the delete of an unconfirmed post record, naming state confirm', () => {
    const unconfirmed = { posts: new Set(['launch']) };
    const update = plan({ posts: [desired('launch', edited)], section: owned, live: [livePost('p1', applied)], unconfirmed });
    expect(actions(update)).toEqual([['blocked', 'launch', 'unconfirmed-record']]);
    expect(update.changes[0]!.details).toEqual([{ code: 'unconfirmed-record', key: 'launch', postId: 'p1', pending: false }]);
    expect(update.summary).toMatchObject({ update: 0, blocked: 1 });
    expect(actions(plan({ posts: [desired('launch', applied)], section: owned, live: [livePost('p1', applied)], unconfirmed }))).toEqual([['blocked', 'launch', 'unconfirmed-record']]);
    expect(actions(plan({ posts: [], section: owned, live: [livePost('p1', applied)], unconfirmed }))).toEqual([['blocked', 'launch', 'unconfirmed-record']]);
    expect(actions(plan({ posts: [desired('launch', edited)], section: owned, live: [livePost('p1', applied)], unconfirmed: {} }))).toEqual([['update', 'launch', 'file-changed']]);
  });

  it('blocks the unschedule of a scheduled post whose file is gone, when its record is unconfirmed', () => {
    const scheduled = shape({ content: 'Scheduled', scheduledAt: '2031-06-01T09:00:00.000Z' });
    const section = state({ posts: { launch: record('p1', scheduled, 'posts/launch.md') } });
    const live = [livePost('p1', scheduled, { status: 'scheduled' })];
    expect(actions(plan({ posts: [], section, live, unconfirmed: {}, prune: false }))).toEqual([['unschedule', 'launch', 'file-removed']]);
    expect(actions(plan({ posts: [], section, live, unconfirmed: { posts: new Set(['launch']) }, prune: false }))).toEqual([['blocked', 'launch', 'unconfirmed-record']]);
  });

  it('blocks what rests on two sealed records of one post (one put back from an older state)', () => {
    const section = state({ posts: { launch: record('p1', applied, 'posts/launch.md'), renamed: record('p1', applied, 'posts/renamed.md') } });
    const planned = plan({ posts: [desired('renamed', edited)], section, live: [livePost('p1', applied)], unconfirmed: {} });
    expect(actions(planned)).toEqual([['blocked', 'launch', 'shared-record'], ['blocked', 'renamed', 'shared-record']]);
    expect(planned.changes[0]!.details).toEqual([{ code: 'shared-record', keys: ['launch', 'renamed'], postId: 'p1' }]);
    const alone = state({ posts: { renamed: record('p1', applied, 'posts/renamed.md') } });
    expect(actions(plan({ posts: [desired('renamed', edited)], section: alone, live: [livePost('p1', applied)], unconfirmed: {} }))).toEqual([['update', 'renamed', 'file-changed']]);
  });

  it('blocks a move away from an unconfirmed record', () => {
    const moved = plan({ posts: [desired('renamed', applied)], section: owned, live: [livePost('p1', applied)], unconfirmed: { posts: new Set(['launch']) } });
    expect(moved.changes.map((change) => [change.action, change.key, change.fromKey, change.reason])).toEqual([['blocked', 'renamed', 'launch', 'unconfirmed-record']]);
  });

  it('blocks the resend of an unconfirmed pending create, with or without its file', () => {
    const pending = { launch: { file: 'posts/launch.md', idempotencyKey: 'psync-x', payload: { content: 'As applied', targets: [], mediaIds: [] }, shapeHash: 'f'.repeat(64), startedAt: '2026-01-01T00:00:00.000Z' } };
    const section = state({ pending });
    const unconfirmed = { pending: new Set(['launch']) };
    const resent = plan({ posts: [desired('launch', applied)], section, live: [], unconfirmed });
    expect(actions(resent)).toEqual([['blocked', 'launch', 'unconfirmed-record']]);
    expect(resent.changes[0]!.details).toEqual([{ code: 'unconfirmed-record', key: 'launch', postId: null, pending: true }]);
    expect(actions(plan({ posts: [], section, live: [], unconfirmed }))).toEqual([['blocked', 'launch', 'unconfirmed-record']]);
  });

  it('uploads a media again when its record is unconfirmed, and not otherwise', () => {
    const withMedia = shape({ content: 'Photo', media: [SHA_A] });
    const section = state({ media: mediaState(SHA_A) });
    expect(plan({ posts: [desired('photo', withMedia)], section, live: [], unconfirmed: {} }).uploads).toEqual([]);
    const uploads = plan({ posts: [desired('photo', withMedia)], section, live: [], unconfirmed: { media: new Set([SHA_A]) } }).uploads;
    expect(uploads.map((upload) => [upload.sha256, upload.usedBy])).toEqual([[SHA_A, ['photo']]]);
  });
});
