import { describe, expect, it } from 'vitest';
import { createPlan } from '../../src/plan/planner.js';
import type { Change, Plan } from '../../src/plan/types.js';
import { shapeHash } from '../../src/content/shape-hash.js';
import {
  PHOTO, SHA_A, SHA_B, VIDEO, accounts, desired, desiredMedia, livePost, mediaState, planInput, record, shape, state,
} from '../helpers/fixtures.js';

/** An interrupted create of `key` whose payload is the draft of `applied`. */
function pendingCreate(key: string) {
  return { file: `posts/${key}.md`, idempotencyKey: `psync-${key}`, payload: { content: 'Launch day', targets: [{ socialAccountId: PHOTO }], mediaIds: [] }, shapeHash: shapeHash(applied), startedAt: '2026-01-01T00:00:00.000Z' };
}

function only(plan: Plan): Change {
  expect(plan.changes).toHaveLength(1);
  return plan.changes[0]!;
}

const applied = shape({ content: 'Launch day' });

describe('createPlan: files without a state record', () => {
  it('creates a new file', () => {
    const plan = createPlan(planInput({ desired: [desired('launch', applied)] }));
    expect(only(plan)).toMatchObject({ action: 'create', key: 'launch', file: 'posts/launch.md', postId: null, details: [{ code: 'new-file' }], desired: applied });
    expect(only(plan).resumesPending).toBeUndefined();
    expect(plan.summary).toEqual({ create: 1, adopt: 0, update: 0, unschedule: 0, delete: 0, move: 0, noop: 0, blocked: 0 });
  });

  it('resumes an interrupted create', () => {
    const pending = { file: 'posts/launch.md', idempotencyKey: 'psync-x', payload: { content: 'Launch day', targets: [], mediaIds: [] }, shapeHash: shapeHash(applied), startedAt: '2026-01-01T00:00:00.000Z' };
    const plan = createPlan(planInput({ desired: [desired('launch', applied)], state: state({ pending: { launch: pending } }) }));
    expect(only(plan)).toMatchObject({ action: 'create', resumesPending: true, details: [{ code: 'interrupted-create' }] });
  });

  it('takes the post an interrupted create made when the remote shows it', () => {
    const section = state({ pending: { launch: pendingCreate('launch') } });
    const plan = createPlan(planInput({ desired: [desired('launch', applied)], state: section, live: [livePost('p1', applied)] }));
    expect(only(plan)).toMatchObject({ action: 'create', reason: 'interrupted-create', postId: 'p1', resumesPending: true });
    expect(only(plan).details).toEqual([{ code: 'interrupted-create' }, { code: 'made-post-found', postId: 'p1' }]);
  });

  it('pairs twin interrupted creates with posts only when there is one for each, else resends each under its own key', () => {
    const section = state({ pending: { launch: pendingCreate('launch'), twin: pendingCreate('twin') } });
    const posts = [desired('launch', applied), desired('twin', applied)];
    const taken = (live: ReturnType<typeof livePost>[]) => createPlan(planInput({ desired: posts, state: section, live })).changes.map((change) => [change.key, change.postId]);
    expect(taken([livePost('p1', applied)])).toEqual([['launch', null], ['twin', null]]);
    expect(taken([livePost('p1', applied), livePost('p2', applied)])).toEqual([['launch', 'p1'], ['twin', 'p2']]);
  });

  it('blocks a create for an unavailable account, with the account reason', () => {
    const post = desired('launch', shape({ targets: [{ socialAccountId: VIDEO, options: {} }] }));
    post.targetLabels = ['brand-video'];
    const plan = createPlan(planInput({ desired: [post], accounts: accounts({ [VIDEO]: { available: false, reason: 'token expired' } }) }));
    expect(only(plan)).toMatchObject({ action: 'blocked', details: [{ code: 'account-unavailable', account: 'brand-video', why: 'token expired' }] });
  });
});

describe('createPlan: owned posts', () => {
  const owned = state({ posts: { launch: record('p1', applied, 'posts/launch.md') } });

  it('is a noop when the live post matches', () => {
    const plan = createPlan(planInput({ desired: [desired('launch', applied)], state: owned, live: [livePost('p1', applied)] }));
    expect(only(plan)).toMatchObject({ action: 'noop', postId: 'p1', liveUpdatedAt: '2026-01-02T00:00:00.000Z' });
  });

  it('updates with field paths and a "changed in" reason', () => {
    const edited = shape({
      content: 'Launch day!',
      scheduledAt: '2026-12-01T08:00:00.000Z',
      targets: [{ socialAccountId: PHOTO, options: { shareToFeed: true } }],
    });
    const plan = createPlan(planInput({ desired: [desired('launch', edited)], state: owned, live: [livePost('p1', applied)] }));
    const change = only(plan);
    expect(change).toMatchObject({ action: 'update', postId: 'p1', liveUpdatedAt: '2026-01-02T00:00:00.000Z', desired: edited });
    expect(change.fields).toEqual([
      { field: 'content', before: 'Launch day', after: 'Launch day!' },
      { field: 'scheduledAt', before: null, after: '2026-12-01T08:00:00.000Z' },
      { field: `targets[${PHOTO}].options.shareToFeed`, before: null, after: true },
    ]);
    expect(change.details).toEqual([{ code: 'file-changed', file: 'posts/launch.md', fields: ['content', 'scheduledAt', `targets[${PHOTO}].options.shareToFeed`] }]);
    expect(change.drift).toBeUndefined();
  });

  it('trusts an unchanged updatedAt: the file says what was applied, so the post is up to date without comparing the live shape', () => {
    const live = livePost('p1', shape({ content: 'Edited in the web app' }));
    expect(only(createPlan(planInput({ desired: [desired('launch', applied)], state: owned, live: [live] }))).action).toBe('noop');
  });

  it('reports drift when the remote changed and the file did not', () => {
    // An edit on the remote gives the post a new updatedAt.
    const live = livePost('p1', shape({ content: 'Edited in the web app' }), { updatedAt: '2026-03-01T00:00:00.000Z' });
    const change = only(createPlan(planInput({ desired: [desired('launch', applied)], state: owned, live: [live] })));
    expect(change.action).toBe('update');
    expect(change.details).toEqual([{ code: 'drifted', fields: ['content'] }]);
    expect(change.drift).toEqual([{ field: 'content', before: 'Launch day', after: 'Edited in the web app' }]);
    expect(change.fields).toEqual([{ field: 'content', before: 'Edited in the web app', after: 'Launch day' }]);
  });

  it('says so when both the file and the remote changed', () => {
    const live = livePost('p1', shape({ content: 'Edited in the web app' }), { updatedAt: '2026-03-01T00:00:00.000Z' });
    const change = only(createPlan(planInput({ desired: [desired('launch', shape({ content: 'New text' }))], state: owned, live: [live] })));
    expect(change.details).toEqual([
      { code: 'file-changed', file: 'posts/launch.md', fields: ['content'] },
      { code: 'also-drifted', file: 'posts/launch.md' },
    ]);
  });

  it('blocks edits of a published post, but not when it already matches', () => {
    const published = livePost('p1', applied, { status: 'published' });
    const edited = createPlan(planInput({ desired: [desired('launch', shape({ content: 'x' }))], state: owned, live: [published] }));
    expect(only(edited)).toMatchObject({ action: 'blocked', postId: 'p1', details: [{ code: 'not-editable', status: 'published', verb: 'edited' }] });
    expect(only(edited).fields).toHaveLength(1);
    const same = createPlan(planInput({ desired: [desired('launch', applied)], state: owned, live: [published] }));
    expect(only(same).action).toBe('noop');
  });

  it('blocks edits of a post in any other non-editable status', () => {
    const publishing = livePost('p1', applied, { status: 'publishing' });
    const plan = createPlan(planInput({ desired: [desired('launch', shape({ content: 'x' }))], state: owned, live: [publishing] }));
    expect(only(plan).details).toEqual([{ code: 'not-editable', status: 'publishing', verb: 'edited' }]);
  });

  it('blocks an update when a target account is unavailable or unknown', () => {
    const edited = desired('launch', shape({ content: 'x' }));
    const unavailable = createPlan(planInput({ desired: [edited], state: owned, live: [livePost('p1', applied)], accounts: accounts({ [PHOTO]: { available: false } }) }));
    expect(only(unavailable)).toMatchObject({ action: 'blocked', details: [{ code: 'account-unavailable', account: PHOTO, why: null }] });
    const unknown = createPlan(planInput({ desired: [edited], state: owned, live: [livePost('p1', applied)], accounts: new Map() }));
    expect(only(unknown).details).toEqual([{ code: 'account-not-connected', account: PHOTO }]);
  });

  it('edits and deletes a scheduled post like a draft', () => {
    const scheduled = shape({ content: 'Launch day', scheduledAt: '2026-12-01T08:00:00.000Z' });
    const section = state({ posts: { launch: record('p1', scheduled, 'posts/launch.md') } });
    const live = [livePost('p1', scheduled)];
    expect(live[0]!.status).toBe('scheduled');
    const edit = createPlan(planInput({ desired: [desired('launch', shape({ ...scheduled, content: 'x' }))], state: section, live }));
    expect(only(edit).action).toBe('update');
    const remove = createPlan(planInput({ state: section, live, prune: true }));
    expect(only(remove)).toMatchObject({ action: 'delete', reason: 'file-removed' });
    const back = createPlan(planInput({ state: section, live }));
    expect(only(back)).toMatchObject({ action: 'unschedule', reason: 'file-removed', postId: 'p1', fields: [{ field: 'scheduledAt', before: '2026-12-01T08:00:00.000Z', after: null }] });
  });

  const recreate = (keys: string[], all = false) => ({ adopt: new Map<string, string>(), recreate: { all, keys: new Set(keys) } });

  it('recreates a post deleted on the remote when a person says so, resuming a create of it that was interrupted', () => {
    const pending = { file: 'posts/launch.md', idempotencyKey: 'psync-x', payload: { content: 'Launch day', targets: [], mediaIds: [] }, shapeHash: shapeHash(applied), startedAt: '2026-01-01T00:00:00.000Z' };
    // A record and a pending create of one key: a state merged by hand.
    const both = state({ posts: owned.posts, pending: { launch: pending } });
    const change = only(createPlan(planInput({ desired: [desired('launch', applied)], state: both, live: [], choices: recreate(['launch']) })));
    expect(change).toMatchObject({ action: 'create', resumesPending: true, details: [{ code: 'recreated', appliedAt: '2026-01-02T00:00:00.000Z' }, { code: 'interrupted-create' }] });
  });

  it('holds a post deleted on the remote, saying when postsync last wrote it, until a person recreates it (by key or all)', () => {
    const held = only(createPlan(planInput({ desired: [desired('launch', applied)], state: owned, live: [] })));
    expect(held).toMatchObject({ action: 'blocked', reason: 'deleted-on-remote', postId: 'p1', desired: applied });
    expect(held.details).toEqual([
      { code: 'deleted-on-remote', appliedAt: '2026-01-02T00:00:00.000Z' },
      { code: 'recreate-hint', key: 'launch', file: 'posts/launch.md' },
    ]);
    expect(only(createPlan(planInput({ desired: [desired('launch', applied)], state: owned, live: [], choices: recreate(['other']) }))).action).toBe('blocked');
    for (const choices of [recreate(['launch']), recreate([], true)]) {
      const recreated = only(createPlan(planInput({ desired: [desired('launch', applied)], state: owned, live: [], choices })));
      expect(recreated).toMatchObject({ action: 'create', reason: 'deleted-on-remote', postId: null });
      expect(recreated.details).toEqual([{ code: 'recreated', appliedAt: '2026-01-02T00:00:00.000Z' }]);
    }
  });

  it('does nothing about a post written moments ago that the remote does not show yet (a read that lags a write)', () => {
    for (const now of ['2026-01-02T00:00:00.000Z', '2026-01-02T00:09:59.000Z']) {
      const change = only(createPlan(planInput({ desired: [desired('launch', applied)], state: owned, live: [], now })));
      expect(change).toMatchObject({ action: 'noop', reason: 'not-visible-yet', postId: 'p1', details: [{ code: 'not-visible-yet', appliedAt: '2026-01-02T00:00:00.000Z' }] });
    }
    expect(only(createPlan(planInput({ desired: [desired('launch', applied)], state: owned, live: [], now: '2026-01-02T00:10:00.000Z' }))).reason).toBe('deleted-on-remote');
    // A record from the future (a clock set wrong) is no recent write.
    expect(only(createPlan(planInput({ desired: [desired('launch', applied)], state: owned, live: [], now: '2026-01-01T23:59:00.000Z' }))).reason).toBe('deleted-on-remote');
  });

  it('re-keys nothing but the file when a post keeps its key under a new path', () => {
    const plan = createPlan(planInput({ desired: [desired('launch', applied, { file: 'posts/2026/launch.md' })], state: owned, live: [livePost('p1', applied)] }));
    expect(only(plan)).toMatchObject({ action: 'move', key: 'launch', fromKey: 'launch', file: 'posts/2026/launch.md', details: [{ code: 'renamed', from: 'posts/launch.md', to: 'posts/2026/launch.md' }] });
  });
});

describe('createPlan: owned posts whose file is gone', () => {
  const owned = state({ posts: { launch: record('p1', applied, 'posts/launch.md') } });

  it('moves a renamed file: same payload, new key', () => {
    const plan = createPlan(planInput({ desired: [desired('launch-v2', applied)], state: owned, live: [livePost('p1', applied)] }));
    expect(only(plan)).toMatchObject({
      action: 'move', key: 'launch-v2', fromKey: 'launch', postId: 'p1', file: 'posts/launch-v2.md',
      details: [{ code: 'renamed', from: 'posts/launch.md', to: 'posts/launch-v2.md' }],
    });
    expect(plan.summary.move).toBe(1);
  });

  it('does not move when the renamed file was also edited, or the live post drifted', () => {
    const edited = createPlan(planInput({ desired: [desired('launch-v2', shape({ content: 'x' }))], state: owned, live: [livePost('p1', applied)] }));
    expect(edited.changes.map((c) => c.action)).toEqual(['create', 'noop']);
    const drifted = createPlan(planInput({ desired: [desired('launch-v2', applied)], state: owned, live: [livePost('p1', shape({ content: 'y' }))] }));
    expect(drifted.changes.map((c) => c.action)).toEqual(['create', 'noop']);
  });

  it('moves a post whose front-matter id changed in the same file, and says so', () => {
    const plan = createPlan(planInput({ desired: [desired('launch-v2', applied, { file: 'posts/launch.md' })], state: owned, live: [livePost('p1', applied)] }));
    expect(only(plan)).toMatchObject({ action: 'move', key: 'launch-v2', fromKey: 'launch', details: [{ code: 'key-changed', fromKey: 'launch', key: 'launch-v2', file: 'posts/launch.md' }] });
  });

  it('pairs identical renamed posts deterministically', () => {
    const two = state({ posts: { a: record('p1', applied, 'posts/a.md'), b: record('p2', applied, 'posts/b.md') } });
    const plan = createPlan(planInput({ desired: [desired('d', applied), desired('c', applied)], state: two, live: [livePost('p1', applied), livePost('p2', applied)] }));
    expect(plan.changes.map((c) => [c.action, c.fromKey, c.key])).toEqual([['move', 'a', 'c'], ['move', 'b', 'd']]);
  });

  it('leaves a removed file\'s draft as it is without --prune, and says so', () => {
    const plan = createPlan(planInput({ state: owned, live: [livePost('p1', applied)] }));
    expect(only(plan)).toMatchObject({ action: 'noop', reason: 'file-removed', postId: 'p1', file: 'posts/launch.md', liveUpdatedAt: '2026-01-02T00:00:00.000Z', details: [{ code: 'file-removed', file: 'posts/launch.md', outcome: 'kept-as-draft' }] });
    expect(plan.summary.delete).toBe(0);
  });

  it('returns a removed file\'s scheduled post to draft without --prune: it never publishes', () => {
    const scheduled = shape({ content: 'Launch day', scheduledAt: '2026-12-01T08:00:00.000Z' });
    const section = state({ posts: { launch: record('p1', scheduled, 'posts/launch.md') } });
    const plan = createPlan(planInput({ state: section, live: [livePost('p1', scheduled)] }));
    expect(only(plan)).toMatchObject({ action: 'unschedule', reason: 'file-removed', postId: 'p1', details: [{ code: 'file-removed', file: 'posts/launch.md', outcome: 'back-to-draft' }] });
    expect(plan.summary).toMatchObject({ unschedule: 1, delete: 0 });
  });

  it('deletes with --prune', () => {
    const plan = createPlan(planInput({ state: owned, live: [livePost('p1', applied)], prune: true }));
    expect(only(plan)).toMatchObject({ action: 'delete', reason: 'file-removed', details: [{ code: 'file-removed', file: 'posts/launch.md', outcome: 'deleted' }] });
  });

  it('never deletes a published post, and leaves it as no change, with or without --prune', () => {
    for (const prune of [true, false]) {
      const plan = createPlan(planInput({ state: owned, live: [livePost('p1', applied, { status: 'published' })], prune }));
      expect(only(plan)).toMatchObject({ action: 'noop', reason: 'published-kept', details: [{ code: 'file-removed', file: 'posts/launch.md', outcome: 'published-kept' }] });
    }
  });

  it('still blocks a removed file\'s post in another status that cannot be edited', () => {
    const plan = createPlan(planInput({ state: owned, live: [livePost('p1', applied, { status: 'publishing' })] }));
    expect(only(plan)).toMatchObject({ action: 'blocked', reason: 'not-editable', details: [{ code: 'not-editable', status: 'publishing', verb: 'deleted' }] });
  });

  it('forgets a post already deleted on the remote, state only', () => {
    const plan = createPlan(planInput({ state: owned, live: [] }));
    expect(only(plan)).toMatchObject({ action: 'delete', postId: 'p1', stateOnly: true, details: [{ code: 'gone-on-remote' }] });
  });

  it('resolves a pending create whose file is gone, then returns its post to draft, or with --prune deletes it', () => {
    const pending = { file: 'posts/x.md', idempotencyKey: 'psync-x', payload: { content: 'x', targets: [], mediaIds: [] }, shapeHash: SHA_A, startedAt: '2026-01-01T00:00:00.000Z' };
    const plan = createPlan(planInput({ state: state({ pending: { x: pending } }) }));
    expect(only(plan)).toMatchObject({
      action: 'unschedule', key: 'x', postId: null, resumesPending: true,
      details: [{ code: 'pending-removed', file: 'posts/x.md', prune: false }],
    });
    expect(only(createPlan(planInput({ state: state({ pending: { x: pending } }), prune: true })))).toMatchObject({
      action: 'delete',
      details: [{ code: 'pending-removed', file: 'posts/x.md', prune: true }],
    });
  });
});

describe('createPlan: scope', () => {
  it('ignores remote posts that are not in state', () => {
    const plan = createPlan(planInput({ live: [livePost('stranger', shape({ content: 'not ours' }))] }));
    expect(plan.changes).toEqual([]);
    expect(plan.summary).toEqual({ create: 0, adopt: 0, update: 0, unschedule: 0, delete: 0, move: 0, noop: 0, blocked: 0 });
  });

  it('plans every post: a selection (--target) is made on the finished plan (select-plan.test.ts)', () => {
    const owned = state({ posts: { old: record('p1', applied, 'posts/old.md') } });
    const plan = createPlan(planInput({ desired: [desired('a'), desired('b')], state: owned, live: [livePost('p1', applied)] }));
    expect(plan.changes.map((c) => `${c.action}:${c.key}`)).toEqual(['create:a', 'create:b', 'noop:old']);
    expect(plan.only).toBeNull();
  });

  it('uploads each missing media once, for the posts that need it', () => {
    const withA = shape({ media: [SHA_A] });
    const withAB = shape({ content: 'two', media: [SHA_A, SHA_B] });
    const plan = createPlan(planInput({ desired: [desired('one', withA), desired('two', withAB)], state: state({ media: mediaState(SHA_B) }) }));
    expect(plan.uploads).toEqual([{ ...pick(desiredMedia(SHA_A, 'media/aaaa.png')), usedBy: ['one', 'two'] }]);
  });

  it('uploads nothing for blocked posts', () => {
    const post = desired('one', shape({ media: [SHA_A] }));
    const plan = createPlan(planInput({ desired: [post], accounts: accounts({ [PHOTO]: { available: false } }) }));
    expect(plan.uploads).toEqual([]);
  });

  it('sorts changes by action then key and passes the rest through', () => {
    const owned = state({
      posts: { same: record('p1', applied, 'posts/same.md'), gone: record('p2', applied, 'posts/gone.md'), edit: record('p3', applied, 'posts/edit.md') },
    });
    const diagnostics = [{ severity: 'warning' as const, code: 'x', message: 'y' }];
    const plan = createPlan(planInput({
      desired: [desired('zeta'), desired('same', applied), desired('edit', shape({ content: 'z' })), desired('alpha')],
      state: owned,
      live: [livePost('p1', applied), livePost('p2', applied), livePost('p3', applied)],
      diagnostics,
    }));
    expect(plan.changes.map((c) => `${c.action}:${c.key}`)).toEqual(['create:alpha', 'create:zeta', 'update:edit', 'noop:gone', 'noop:same']);
    expect(plan).toMatchObject({ formatVersion: 1, createdAt: '2026-03-01T12:00:00.000Z', diagnostics, prune: false });
    expect(plan.summary).toEqual({ create: 2, adopt: 0, update: 1, unschedule: 0, delete: 0, move: 0, noop: 2, blocked: 0 });
  });
});

function pick(media: ReturnType<typeof desiredMedia>) {
  const { sha256, path, sizeBytes, contentType, kind } = media;
  return { sha256, path, sizeBytes, contentType, kind };
}

describe('createPlan: posts untouched since the last apply', () => {
  it('asks a live source by id for a post in full only when its brief does not make it a noop', () => {
    const section = state({ posts: { same: record('p-same', applied, 'posts/same.md'), edited: record('p-edited', applied, 'posts/edited.md'), gone: record('p-gone', applied, 'posts/gone.md') } });
    const posts = new Map(['p-same', 'p-edited', 'p-gone'].map((id) => [id, livePost(id, applied)]));
    const askedInFull: string[] = [];
    const live = { briefs: posts, get: (id: string) => (askedInFull.push(id), posts.get(id)) };
    const plan = createPlan(planInput({ desired: [desired('same', applied), desired('edited', shape({ content: 'Edited' }))], state: section, live }));
    expect(plan.changes.map((change) => [change.action, change.key])).toEqual([['update', 'edited'], ['noop', 'gone'], ['noop', 'same']]);
    expect([...new Set(askedInFull)].sort()).toEqual(['p-edited', 'p-gone']);
  });
});
