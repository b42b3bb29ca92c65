import { describe, expect, it } from 'vitest';
import { livePostsById } from '../../src/plan/plan-context.js';
import { planPosts, type PlanPostsInput } from '../../src/plan/plan-posts.js';
import { NONE_UNCONFIRMED } from '../../src/plan/unconfirmed-records.js';
import { stateSectionHash } from '../../src/state/state-file.js';
import type { UnconfirmedRecords } from '../../src/state/seal.js';
import type { Post } from '../../src/api/types.js';
import type { TargetState } from '../../src/state/types.js';
import type { DesiredPost } from '../../src/content/types.js';
import { PHOTO, SHA_A, TARGET, desired, livePost, mediaState, record, shape, state } from '../helpers/fixtures.js';

const applied = shape({ content: 'As applied' });
const edited = shape({ content: 'Edited' });
const capabilities = new Map([[PHOTO, { available: true, supported: true }]]) as unknown as PlanPostsInput['capabilities'];

function plan(options: { posts: DesiredPost[]; section: TargetState; live: Post[]; unconfirmed: Partial<UnconfirmedRecords>; prune?: boolean }) {
  return planPosts({
    target: TARGET, posts: options.posts, contentDiagnostics: [], checkDiagnostics: [], invalidFiles: [],
    state: options.section, stateHash: stateSectionHash(options.section), live: livePostsById(options.live),
    unconfirmed: { ...NONE_UNCONFIRMED, ...options.unconfirmed }, capabilities, prune: options.prune ?? true, only: null, now: new Date('2026-03-01T12:00:00.000Z'), timezone: 'UTC',
  });
}
const actions = (planned: ReturnType<typeof plan>) => planned.changes.map((change) => [change.action, change.key, change.reason]);

describe('planPosts with records that carry no valid seal', () => {
  const owned = state({ posts: { launch: record('p1', applied, 'posts/launch.md') } });

  it('blocks the update, the noop and the delete of an unconfirmed post record, naming state confirm', () => {
    const unconfirmed = { posts: new Set(['launch']) };
    const update = plan({ posts: [desired('launch', edited)], section: owned, live: [livePost('p1', applied)], unconfirmed });
    expect(actions(update)).toEqual([['blocked', 'launch', 'unconfirmed-record']]);
    expect(update.changes[0]!.reasons[0]).toContain('The state record of "launch" (post p1) was not written by an apply of this repository');
    expect(update.changes[0]!.reasons[0]).toContain('postsync state confirm launch');
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
    expect(planned.changes[0]!.reasons).toEqual(['The state records "launch", "renamed" all point at post p1; an apply never leaves two records on one post, so none is acted on. Remove the stale record from the state file.']);
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
    expect(resent.changes[0]!.reasons[0]).toContain('The interrupted create of "launch" in the state was not written');
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
