import { readFile } from 'node:fs/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readState } from '../../src/state/state-file.js';
import { createBody } from '../../src/apply/payload.js';
import { executeChange, type ExecuteContext } from '../../src/apply/execute-change.js';
import { PostsyncError } from '../../src/errors.js';
import type { Change } from '../../src/plan/types.js';
import { shapeHash } from '../../src/content/shape-hash.js';
import { idempotencyKey } from '../../src/state/idempotency.js';
import { useEmulator } from '../helpers/emulator.js';
import { HoldingProxy } from '../helpers/holding-proxy.js';
import { desired, looseChange, shape } from '../helpers/fixtures.js';
import { APPLIED_AT, applyNow, applyWorld, planNow, pngMedia, remotePosts, writes, type ApplyWorld } from './apply-world.js';
import { testSeal } from '../helpers/seal.js';

const emulator = useEmulator();

function context(world: ApplyWorld, extra: Partial<ExecuteContext> = {}): ExecuteContext {
  return { client: world.client, store: world.store, targetId: world.target.id, now: () => new Date(APPLIED_AT), ...extra };
}

const draft = shape({ content: 'Launch day' });

/** A world holding one applied draft post, `launch`. */
async function withLaunch() {
  const world = await applyWorld(emulator());
  await applyNow(world, await planNow(world, [desired('launch', draft)]));
  await world.api.clearLog();
  const [live] = await remotePosts(world);
  return { world, live: live! };
}

describe('executeChange: create', () => {
  it('records the created post with the hash of what it holds and the updatedAt it answered with', async () => {
    const world = await applyWorld(emulator());
    const plan = await planNow(world, [desired('launch', draft)]);
    expect(await executeChange(plan.changes[0]!, context(world))).toMatch(/.+/);
    const [live] = await remotePosts(world);
    expect(world.store.section.pending).toEqual({});
    expect(world.store.section.posts).toStrictEqual({
      launch: testSeal(world.target).sealed('posts', 'launch', { postId: live!.id, file: 'posts/launch.md', appliedHash: shapeHash(draft), remoteUpdatedAt: live!.updatedAt, observedHash: shapeHash(draft), appliedAt: APPLIED_AT }),
    });
    expect(await writes(world)).toEqual(['POST /posts']);
    // So the next plan sees it untouched on both sides.
    expect((await planNow(world, [desired('launch', draft)])).changes.map((change) => change.action)).toEqual(['noop']);
  });

  it('records what the file was made from (its sources) with the post it creates, and again with each update; none for a file without them', async () => {
    const world = await applyWorld(emulator());
    const made = (content: string, digest?: string) => ({ ...desired('launch', shape({ content })), ...(digest === undefined ? {} : { origins: { digests: { file: digest }, fields: {} } }) });
    await executeChange((await planNow(world, [made('Launch day', 'd1')])).changes[0]!, context(world));
    expect(world.store.section.posts.launch?.sources).toEqual({ file: 'd1' });
    await executeChange((await planNow(world, [made('Launch day!', 'd2')])).changes[0]!, context(world));
    expect(world.store.section.posts.launch?.sources).toEqual({ file: 'd2' });
    await executeChange((await planNow(world, [made('Launch day!!')])).changes[0]!, context(world));
    expect(world.store.section.posts.launch).not.toHaveProperty('sources');
  });

  it('records the sources of a created post that one PATCH then scheduled', async () => {
    const world = await applyWorld(emulator());
    const cover = await pngMedia(world, 'cover.png');
    const scheduled = { ...desired('launch', shape({ content: 'Launch day', scheduledAt: '2031-06-01T09:00:00.000Z', media: [cover.sha256] }), { media: [cover] }), origins: { digests: { file: 'd1' }, fields: {} } };
    expect((await applyNow(world, await planNow(world, [scheduled]))).failed).toEqual([]);
    expect(world.store.section.posts.launch?.sources).toEqual({ file: 'd1' });
  });

  it('creates a draft, then schedules it with one PATCH, and records what the PATCH answered', async () => {
    const world = await applyWorld(emulator());
    const cover = await pngMedia(world, 'cover.png');
    const scheduled = shape({ content: 'Launch day', scheduledAt: '2031-06-01T09:00:00.000Z', media: [cover.sha256] });
    const result = await applyNow(world, await planNow(world, [desired('launch', scheduled, { media: [cover] })]));
    expect(result.failed).toEqual([]);
    expect((await writes(world)).filter((line) => line.includes('/posts'))).toEqual(['POST /posts', expect.stringMatching(/^PATCH \/posts\/.+/)]);
    const [live] = await remotePosts(world);
    expect(live).toMatchObject({ status: 'scheduled', scheduledAt: '2031-06-01T09:00:00.000Z' });
    expect(world.store.section.posts.launch).toMatchObject({ appliedHash: shapeHash(scheduled), remoteUpdatedAt: live!.updatedAt });
    expect((await planNow(world, [desired('launch', scheduled, { media: [cover] })])).changes.map((change) => change.action)).toEqual(['noop']);
  });

  it('writes the pending create, with its key and exact payload, to disk before the request leaves', async () => {
    const api = emulator();
    const proxy = await HoldingProxy.start(api.baseUrl);
    onTestFinished(() => proxy.close());
    const world = await applyWorld(api, { baseUrl: proxy.baseUrl });
    const change = (await planNow(world, [desired('launch', draft)])).changes[0]!;
    const held = proxy.holdNext((method, path) => method === 'POST' && path.endsWith('/posts'));
    const executing = executeChange(change, context(world));
    executing.catch(() => undefined);
    await held;
    // The service made the post; the answer never reaches postsync.
    const payload = createBody(draft, world.store.section);
    const key = idempotencyKey({ targetId: world.target.id, calendar: '.', postKey: 'launch', payload });
    const onDisk = (await readState(world.statePath)).targets['local:demo']!;
    expect(onDisk.pending).toEqual({ launch: testSeal(world.target).sealed('pending', 'launch', { file: 'posts/launch.md', idempotencyKey: key, payload, shapeHash: shapeHash(draft), startedAt: APPLIED_AT }) });
    expect(onDisk.posts).toEqual({});
    expect((await api.requestLog()).find((entry) => entry.method === 'POST')?.idempotencyKey).toBe(key);
    await proxy.close();
    await expect(executing).rejects.toThrow();
  });

  it('resends an interrupted create with its key and payload: the original post comes back, then gets what the file says now', async () => {
    const world = await applyWorld(emulator());
    const before = shape({ content: 'Written before the crash' });
    const payload = createBody(before, world.store.section);
    const key = idempotencyKey({ targetId: world.target.id, calendar: '.', postKey: 'launch', payload });
    await world.store.recordPending('launch', { file: 'posts/launch.md', idempotencyKey: key, payload, shapeHash: shapeHash(before), startedAt: APPLIED_AT });
    const original = await world.client.createPost(payload, { idempotencyKey: key }); // its answer was lost
    const plan = await planNow(world, [desired('launch', draft)]);
    expect(plan.changes[0]).toMatchObject({ action: 'create', resumesPending: true });
    expect(await executeChange(plan.changes[0]!, context(world))).toBe(original.id);
    const posts = await remotePosts(world);
    expect(posts.map((post) => [post.id, post.content])).toEqual([[original.id, 'Launch day']]);
    expect(world.store.section.pending).toEqual({});
    expect(world.store.section.posts.launch).toMatchObject({ postId: original.id, appliedHash: shapeHash(draft), remoteUpdatedAt: posts[0]!.updatedAt });
  });

  it('refuses to resume a create whose pending record is gone', async () => {
    const world = await applyWorld(emulator());
    const change: Change = { action: 'create', reason: 'interrupted-create', key: 'launch', file: 'posts/launch.md', postId: null, details: [], desired: draft, resumesPending: true };
    await expect(executeChange(change, context(world))).rejects.toThrow(new PostsyncError('no interrupted create of "launch" is recorded any more; plan again'));
    expect(await writes(world)).toEqual([]);
  });

});

describe('executeChange: update', () => {
  it('sends the changed fields and records the new hash and updatedAt, so the next plan is a noop at once', async () => {
    const { world, live } = await withLaunch();
    const edited = shape({ content: 'Launch day, edited' });
    const change = (await planNow(world, [desired('launch', edited)])).changes[0]!;
    expect(change.action).toBe('update');
    expect(await executeChange(change, context(world, { now: () => new Date('2026-05-02T00:00:00.000Z') }))).toBe(live.id);
    expect(await writes(world)).toEqual([`PATCH /posts/${live.id}`]);
    const [after] = await remotePosts(world);
    expect(after!.content).toBe('Launch day, edited');
    expect(world.store.section.posts.launch).toEqual(testSeal(world.target).sealed('posts', 'launch', {
      postId: live.id, file: 'posts/launch.md', appliedHash: shapeHash(edited), remoteUpdatedAt: after!.updatedAt, observedHash: shapeHash(edited), appliedAt: '2026-05-02T00:00:00.000Z',
    }));
    const again = await planNow(world, [desired('launch', edited)]);
    expect(again.changes[0]).toMatchObject({ action: 'noop', reason: 'up-to-date', liveUpdatedAt: after!.updatedAt });
  });

  it('hands the state write to `defer` instead of awaiting it, when given one', async () => {
    const { world } = await withLaunch();
    const change = (await planNow(world, [desired('launch', shape({ content: 'Deferred' }))])).changes[0]!;
    const deferred: Promise<void>[] = [];
    await executeChange(change, context(world, { defer: (saving) => void deferred.push(saving) }));
    expect(deferred).toHaveLength(1);
    await Promise.all(deferred);
    expect(world.store.section.posts.launch?.appliedHash).toBe(shapeHash(shape({ content: 'Deferred' })));
  });
});

describe('executeChange: move, adopt, delete, noop, blocked', () => {
  it('re-keys the state of a move without any request', async () => {
    const { world, live } = await withLaunch();
    const change = (await planNow(world, [desired('launch-v2', draft)])).changes[0]!;
    expect(change).toMatchObject({ action: 'move', fromKey: 'launch' });
    expect(await executeChange(change, context(world))).toBe(live.id);
    expect(Object.keys(world.store.section.posts)).toEqual(['launch-v2']);
    expect(world.store.section.posts['launch-v2']?.file).toBe('posts/launch-v2.md');
    expect(await writes(world)).toEqual([]);
  });

  it('adopts a remote post no state entry owns without any request: the state records it as applied', async () => {
    const { world, live } = await withLaunch();
    await world.store.removePost('launch');
    const change = (await planNow(world, [desired('again', draft)])).changes[0]!;
    expect(change).toMatchObject({ action: 'adopt', key: 'again', postId: live.id, stateOnly: true });
    expect(await executeChange(change, context(world))).toBe(live.id);
    expect(world.store.section.posts).toEqual({
      again: testSeal(world.target).sealed('posts', 'again', { postId: live.id, file: 'posts/again.md', appliedHash: shapeHash(draft), remoteUpdatedAt: live.updatedAt, observedHash: shapeHash(draft), appliedAt: APPLIED_AT }),
    });
    expect(await writes(world)).toEqual([]);
    expect((await planNow(world, [desired('again', draft)])).changes.map((change) => change.action)).toEqual(['noop']);
  });

  it('adopts a post as found by a person\'s choice: the record takes the remote post as applied, so the next plan updates it to the file', async () => {
    const { world, live } = await withLaunch();
    await world.store.removePost('launch');
    const edited = shape({ content: 'Launch day, edited' });
    const choices = { adopt: new Map([['again', live.id]]), recreate: { all: false, keys: new Set<string>() } };
    const change = (await planNow(world, [desired('again', edited)], { choices })).changes[0]!;
    expect(change).toMatchObject({ action: 'adopt', key: 'again', postId: live.id, asFound: true, observedHash: shapeHash(draft) });
    await executeChange(change, context(world));
    expect(world.store.section.posts['again']).toEqual(testSeal(world.target).sealed('posts', 'again', { postId: live.id, file: 'posts/again.md', appliedHash: shapeHash(draft), remoteUpdatedAt: live.updatedAt, observedHash: shapeHash(draft), appliedAt: APPLIED_AT }));
    expect((await planNow(world, [desired('again', edited)])).changes).toMatchObject([{ action: 'update', key: 'again', fields: [{ field: 'content', before: 'Launch day', after: 'Launch day, edited' }] }]);
  });

  it('adopts from a plan saved by an older postsync (no observed shape): the record is the file, with no observed shape yet', async () => {
    const { world, live } = await withLaunch();
    await world.store.removePost('launch');
    const sources = { file: 'f'.repeat(64) };
    const { observedHash: _observed, ...planned } = (await planNow(world, [{ ...desired('again', draft), origins: { digests: sources, fields: {} } }])).changes[0]! as Change & { observedHash?: string };
    expect(planned).toMatchObject({ action: 'adopt', sources });
    await executeChange(planned as Change, context(world));
    const recorded = world.store.section.posts['again']!;
    expect(recorded).toMatchObject({ postId: live.id, appliedHash: shapeHash(draft), sources });
    expect(recorded).not.toHaveProperty('observedHash');
    // Adopted as found from such a plan: the file's hash is all it has.
    await executeChange({ ...planned, key: 'found', file: 'posts/found.md', asFound: true, desired: shape({ content: 'Other' }) } as Change, context(world));
    expect(world.store.section.posts['found']).toMatchObject({ appliedHash: shapeHash(shape({ content: 'Other' })) });
    expect(world.store.section.posts['found']).not.toHaveProperty('sources');
    // Adopted as the file from a plan that carries no sources: none recorded.
    await executeChange({ ...planned, key: 'bare', file: 'posts/bare.md', sources: undefined } as Change, context(world));
    expect(world.store.section.posts['bare']).not.toHaveProperty('sources');
  });

  it('adopts a post the service keeps in a tidied form as the file: applied is the file, observed is what the service keeps', async () => {
    const { world, live } = await withLaunch();
    await world.store.removePost('launch');
    const planned = (await planNow(world, [desired('again', draft)])).changes[0]!;
    const tidied = 'e'.repeat(64);
    await executeChange({ ...planned, observedHash: tidied } as Change, context(world));
    expect(world.store.section.posts['again']).toMatchObject({ postId: live.id, appliedHash: shapeHash(draft), observedHash: tidied });
  });

  it('recreates a post deleted on the remote under an Idempotency-Key of its own: a service that remembers the first create never hands back the deleted post', async () => {
    const { world, live } = await withLaunch();
    await world.client.deletePost(live.id);
    const choices = { adopt: new Map<string, string>(), recreate: { all: false, keys: new Set(['launch']) } };
    const change = (await planNow(world, [desired('launch', draft)], { choices })).changes[0]!;
    expect(change).toMatchObject({ action: 'create', reason: 'deleted-on-remote' });
    await world.api.clearLog();
    const recreated = await executeChange(change, context(world));
    expect(recreated).not.toBe(live.id);
    expect(await writes(world)).toEqual(['POST /posts']);
    expect((await remotePosts(world)).map((post) => post.id)).toEqual([recreated]);
    expect(world.store.section.posts.launch?.postId).toBe(recreated);
  });

  it('deletes with --prune and forgets the post', async () => {
    const { world, live } = await withLaunch();
    const change = (await planNow(world, [], { prune: true })).changes[0]!;
    expect(await executeChange(change, context(world))).toBe(live.id);
    expect(await writes(world)).toEqual([`DELETE /posts/${live.id}`]);
    expect(world.store.section.posts).toEqual({});
    expect(await remotePosts(world)).toEqual([]);
  });

  it('forgets a post that was deleted on the remote after planning (404 is what it wanted)', async () => {
    const { world, live } = await withLaunch();
    const change = (await planNow(world, [], { prune: true })).changes[0]!;
    await world.client.deletePost(live.id);
    await executeChange(change, context(world));
    expect(world.store.section.posts).toEqual({});
  });

  it('keeps the record when the delete is refused (the post was published meanwhile)', async () => {
    const world = await applyWorld(emulator());
    const cover = await pngMedia(world, 'cover.png');
    const scheduled = shape({ content: 'Launch day', scheduledAt: '2031-06-01T09:00:00.000Z', media: [cover.sha256] });
    expect((await applyNow(world, await planNow(world, [desired('launch', scheduled, { media: [cover] })]))).failed).toEqual([]);
    const change = (await planNow(world, [], { prune: true })).changes[0]!;
    expect(change).toMatchObject({ action: 'delete', reason: 'file-removed' });
    expect((await world.api.setClock(new Date('2031-06-01T09:00:01.000Z'))).published).toBe(1);
    await expect(executeChange(change, context(world))).rejects.toMatchObject({ status: 409 });
    expect(Object.keys(world.store.section.posts)).toEqual(['launch']);
  });

  it('forgets a state-only delete without a request, whatever prune says', async () => {
    const { world, live } = await withLaunch();
    await world.client.deletePost(live.id);
    await world.api.clearLog();
    const change = (await planNow(world, [])).changes[0]!;
    expect(change).toMatchObject({ action: 'delete', stateOnly: true });
    await executeChange(change, context(world));
    expect(world.store.section.posts).toEqual({});
    expect(await writes(world)).toEqual([]);
  });

  it('leaves a removed file\'s draft alone without --prune', async () => {
    const { world, live } = await withLaunch();
    const change = (await planNow(world, [])).changes[0]!;
    expect(change).toMatchObject({ action: 'noop', reason: 'file-removed' });
    expect(await executeChange(change, context(world))).toBe(live.id);
    expect(Object.keys(world.store.section.posts)).toEqual(['launch']);
    expect(await writes(world)).toEqual([]);
  });

  it('returns a removed file\'s scheduled post to draft with one PATCH, and records it as it now is', async () => {
    const world = await applyWorld(emulator());
    const cover = await pngMedia(world, 'cover.png');
    const scheduled = shape({ content: 'Launch day', scheduledAt: '2031-06-01T09:00:00.000Z', media: [cover.sha256] });
    expect((await applyNow(world, await planNow(world, [desired('launch', scheduled, { media: [cover] })]))).failed).toEqual([]);
    const change = (await planNow(world, [])).changes[0]!;
    expect(change).toMatchObject({ action: 'unschedule', reason: 'file-removed' });
    await world.api.clearLog();
    await executeChange(change, context(world));
    expect(await writes(world)).toEqual([`PATCH /posts/${change.postId}`]);
    const live = await world.client.getPost(change.postId!);
    expect(live).toMatchObject({ status: 'draft', scheduledAt: null });
    expect(world.store.section.posts.launch).toMatchObject({ postId: live.id, remoteUpdatedAt: live.updatedAt });
    expect((await planNow(world, [])).changes).toMatchObject([{ action: 'noop', reason: 'file-removed' }]);
  });

  it('resolves a pending create whose file is gone by the post the plan found it made, then deletes that post: no second create', async () => {
    const world = await applyWorld(emulator());
    const payload = createBody(draft, world.store.section);
    const key = idempotencyKey({ targetId: world.target.id, calendar: '.', postKey: 'launch', payload });
    await world.store.recordPending('launch', { file: 'posts/launch.md', idempotencyKey: key, payload, shapeHash: shapeHash(draft), startedAt: APPLIED_AT });
    const original = await world.client.createPost(payload, { idempotencyKey: key });
    await world.api.clearLog();
    const change = (await planNow(world, [], { prune: true })).changes[0]!;
    expect(change).toMatchObject({ action: 'delete', resumesPending: true, postId: original.id });
    expect(await executeChange(change, context(world))).toBe(original.id);
    expect(await writes(world)).toEqual([`DELETE /posts/${original.id}`]);
    expect(await remotePosts(world)).toEqual([]);
    expect(world.store.section.pending).toEqual({});
    expect(world.store.section.posts).toEqual({});
  });

  it('deletes the post a removed file\'s interrupted create made after the plan was made: the create is resent first, so no post is left behind', async () => {
    const world = await applyWorld(emulator());
    const payload = createBody(draft, world.store.section);
    const key = idempotencyKey({ targetId: world.target.id, calendar: '.', postKey: 'launch', payload });
    await world.store.recordPending('launch', { file: 'posts/launch.md', idempotencyKey: key, payload, shapeHash: shapeHash(draft), startedAt: APPLIED_AT });
    const change = (await planNow(world, [], { prune: true })).changes[0]!;
    expect(change).toMatchObject({ action: 'delete', resumesPending: true, postId: null });
    // The interrupted request lands only now.
    const late = await world.client.createPost(payload, { idempotencyKey: key });
    await world.api.clearLog();
    expect(await executeChange(change, context(world))).toBe(late.id);
    expect(await writes(world)).toEqual(['POST /posts', `DELETE /posts/${late.id}`]);
    expect(await remotePosts(world)).toEqual([]);
    expect(world.store.section.pending).toEqual({});
  });

  /** A pending create of `launch` whose post the service made (its answer lost): the world and that post. */
  async function withMadePost() {
    const world = await applyWorld(emulator());
    const payload = createBody(draft, world.store.section);
    const key = idempotencyKey({ targetId: world.target.id, calendar: '.', postKey: 'launch', payload });
    await world.store.recordPending('launch', { file: 'posts/launch.md', idempotencyKey: key, payload, shapeHash: shapeHash(draft), startedAt: APPLIED_AT });
    return { world, made: await world.client.createPost(payload, { idempotencyKey: key }) };
  }

  it('takes the draft the plan found a removed file\'s pending create made, and sends nothing: it is a draft already', async () => {
    const { world, made } = await withMadePost();
    await world.api.clearLog();
    const change = (await planNow(world, [])).changes[0]!;
    expect(change).toMatchObject({ action: 'unschedule', resumesPending: true, postId: made.id });
    expect(await executeChange(change, context(world))).toBe(made.id);
    expect(await writes(world)).toEqual([]);
    expect(world.store.section.pending).toEqual({});
    expect(world.store.section.posts.launch).toMatchObject({ postId: made.id });
  });

  it('returns to draft the post a removed file\'s pending create made once it was scheduled on the remote', async () => {
    const world = await applyWorld(emulator());
    // Its media uploaded by an earlier apply (a photo post is scheduled only with one).
    const cover = await pngMedia(world, 'cover.png');
    const withCover = shape({ content: 'Launch day', media: [cover.sha256] });
    expect((await applyNow(world, await planNow(world, [desired('other', shape({ content: 'Other', media: [cover.sha256] }), { media: [cover] })]))).failed).toEqual([]);
    const payload = createBody(withCover, world.store.section);
    const key = idempotencyKey({ targetId: world.target.id, calendar: '.', postKey: 'launch', payload });
    await world.store.recordPending('launch', { file: 'posts/launch.md', idempotencyKey: key, payload, shapeHash: shapeHash(withCover), startedAt: APPLIED_AT });
    const made = await world.client.createPost(payload, { idempotencyKey: key });
    await world.client.updatePost(made.id, { scheduledAt: '2031-05-04T10:00:00.000Z' });
    await world.api.clearLog();
    const change = (await planNow(world, [desired('other', shape({ content: 'Other', media: [cover.sha256] }), { media: [cover] })])).changes.find((each) => each.key === 'launch')!;
    expect(change).toMatchObject({ action: 'unschedule', resumesPending: true, postId: made.id });
    await executeChange(change, context(world));
    expect(await writes(world)).toEqual([`PATCH /posts/${made.id}`]);
    expect(await world.client.getPost(made.id)).toMatchObject({ status: 'draft', scheduledAt: null });
  });

  it('resends the create when the post the plan found was deleted since: the Idempotency-Key decides', async () => {
    const { world, made } = await withMadePost();
    const change = (await planNow(world, [desired('launch', draft)])).changes[0]!;
    expect(change).toMatchObject({ action: 'create', resumesPending: true, postId: made.id });
    await world.client.deletePost(made.id);
    await world.api.clearLog();
    await executeChange(change, context(world));
    expect((await writes(world)).filter((write) => write === 'POST /posts')).toHaveLength(1);
    expect(world.store.section.pending).toEqual({});
  });

  it.each(['noop', 'blocked'] as const)('does nothing for a %s', async (action) => {
    const { world, live } = await withLaunch();
    const before = structuredClone(world.store.section);
    const change = looseChange({ action, key: 'launch', file: 'posts/launch.md', postId: live.id, details: [] });
    expect(await executeChange(change, context(world))).toBe(live.id);
    expect(world.store.section).toEqual(before);
    expect(await writes(world)).toEqual([]);
  });
});
