import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { executeChange, type ExecuteContext } from '../../src/apply/execute-change.js';
import { createBody } from '../../src/apply/payload.js';
import { shapeHash } from '../../src/content/shape-hash.js';
import { idempotencyKey } from '../../src/state/idempotency.js';
import type { Change } from '../../src/plan/types.js';
import { StateStore } from '../../src/state/state-store.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { RefusingProxy } from '../helpers/refusing-proxy.js';
import { desired, shape } from '../helpers/fixtures.js';
import { APPLIED_AT, applyNow, applyWorld, planNow, pngMedia, remotePosts, type ApplyWorld } from './apply-world.js';
import { testSeal } from '../helpers/seal.js';

const emulator = useEmulator();

function context(world: ApplyWorld): ExecuteContext {
  return { client: world.client, store: world.store, targetId: world.target.id, now: () => new Date(APPLIED_AT) };
}

/** An apply world whose client goes through a RefusingProxy. */
async function proxiedWorld(): Promise<{ world: ApplyWorld; proxy: RefusingProxy }> {
  const api = emulator();
  const proxy = await RefusingProxy.start(api.baseUrl);
  onTestFinished(() => proxy.close());
  return { world: await applyWorld(api, { baseUrl: proxy.baseUrl }), proxy };
}

/** An apply world whose every `POST /posts` the service answers with `answer`. */
async function worldRefusingCreates(answer: { status: number; code: string }): Promise<ApplyWorld> {
  const { world, proxy } = await proxiedWorld();
  proxy.refuse(({ method, path }) => method === 'POST' && path === '/posts', answer);
  return world;
}

describe('executeChange: what the state records', () => {
  it.each([
    [400, 'validation_failed'],
    [413, 'payload_too_large'],
    [422, 'unprocessable'],
  ])('forgets the pending create of a post the service refused (%i %s): nothing was made, so the fixed file is created afresh', async (status, code) => {
    const world = await worldRefusingCreates({ status, code });
    const change = (await planNow(world, [desired('launch', shape({ content: 'Launch' }))])).changes[0]!;
    await expect(executeChange(change, context(world))).rejects.toThrow();
    expect(world.store.section.pending).toEqual({});
    expect(world.store.section.posts).toEqual({});
  });

  it.each([
    [503, 'unavailable'],
    [408, 'request_timeout'],
    [409, 'conflict'],
    [422, 'idempotency_key_reused'],
  ])('keeps the pending create when the answer does not prove that no post was made (%i %s), to resend it with its key', async (status, code) => {
    const world = await worldRefusingCreates({ status, code });
    const change = (await planNow(world, [desired('launch', shape({ content: 'Launch' }))])).changes[0]!;
    await expect(executeChange(change, context(world))).rejects.toThrow();
    expect(Object.keys(world.store.section.pending)).toEqual(['launch']);
  });

  it('keeps the pending create when the answer is lost (the connection dropped): the post may have been made', async () => {
    const { world, proxy } = await proxiedWorld();
    proxy.drop(({ method, path }) => method === 'POST' && path === '/posts');
    const change = (await planNow(world, [desired('launch', shape({ content: 'Launch' }))])).changes[0]!;
    await expect(executeChange(change, context(world))).rejects.toThrow();
    expect(Object.keys(world.store.section.pending)).toEqual(['launch']);
  });

  it('surfaces a refused read of the post an interrupted create made, and resends nothing: only a 404 means it is gone', async () => {
    const { world, proxy } = await proxiedWorld();
    // A create whose answer was lost: its pending record, and the post it made.
    const launch = shape({ content: 'Launch' });
    const payload = createBody(launch, world.store.section);
    const key = idempotencyKey({ targetId: world.target.id, calendar: '.', postKey: 'launch', payload });
    await world.store.recordPending('launch', { file: 'posts/launch.md', idempotencyKey: key, payload, shapeHash: shapeHash(launch), startedAt: APPLIED_AT });
    const made = await world.client.createPost(payload, { idempotencyKey: key });
    const resume = (await planNow(world, [desired('launch', shape({ content: 'Launch' }))])).changes[0]!;
    expect(resume).toMatchObject({ action: 'create', resumesPending: true, postId: made.id });
    proxy.refuse(({ method, path }) => method === 'GET' && path === `/posts/${made.id}`, { status: 403, code: 'forbidden' });
    await expect(executeChange(resume, context(world))).rejects.toMatchObject({ status: 403 });
    expect((await remotePosts(world)).map((post) => post.id)).toEqual([made.id]);
    expect(Object.keys(world.store.section.pending)).toEqual(['launch']);
  });

  it('records the slot time of a post whose time came from a slot, and no slot time for any other post', async () => {
    const world = await applyWorld(emulator());
    const at = '2031-06-02T09:00:00.000Z';
    const cover = await pngMedia(world, 'cover.png');
    const post = (key: string) => desired(key, shape({ content: key, scheduledAt: at, media: [cover.sha256] }), { media: [cover] });
    const plan = await planNow(world, [post('slotted'), post('timed')]);
    await applyNow(world, { ...plan, changes: [] });
    const slotted = { ...plan.changes.find((change) => change.key === 'slotted')!, slot: { slot: 'Tue 11:00', scheduledAt: at, source: 'assigned' as const } };
    await executeChange(slotted, context(world));
    await executeChange(plan.changes.find((change) => change.key === 'timed')!, context(world));
    expect(world.store.section.posts['slotted']?.slotAt).toBe(at);
    expect(world.store.section.posts['timed']).not.toHaveProperty('slotAt');
  });

  it('records the media an adopt carries, and leaves a media record the state has as it is', async () => {
    const world = await applyWorld(emulator());
    const cover = await pngMedia(world, 'cover.png');
    const post = desired('launch', shape({ content: 'Launch', media: [cover.sha256] }), { media: [cover] });
    await applyNow(world, await planNow(world, [post]));
    const [live] = await remotePosts(world);
    const known = world.store.section.media[cover.sha256]!;
    await world.store.removePost('launch');
    const adopt: Change = {
      action: 'adopt',
      reason: 'unowned-match',
      key: 'launch',
      file: 'posts/launch.md',
      postId: live!.id,
      desired: post.shape,
      liveUpdatedAt: live!.updatedAt,
      stateOnly: true,
      details: [],
      mediaRecords: [
        { sha256: cover.sha256, mediaId: 'another-id', sizeBytes: 1, contentType: 'image/png' },
        { sha256: 'f'.repeat(64), mediaId: live!.media[0]!.id, sizeBytes: 10, contentType: 'image/jpeg' },
      ],
    };
    expect(await executeChange(adopt, context(world))).toBe(live!.id);
    expect(world.store.section.media[cover.sha256]).toEqual(known);
    expect(world.store.section.media['f'.repeat(64)]).toMatchObject({ mediaId: live!.media[0]!.id, sizeBytes: 10, contentType: 'image/jpeg' });
    expect(world.store.section.posts['launch']?.postId).toBe(live!.id);
  });

  it('starts each upload under an idempotency key of its own attempt: a second run uploading the same file is never handed the first one\'s ticket', async () => {
    const world = await applyWorld(emulator());
    const cover = await pngMedia(world, 'cover.png');
    const post = desired('launch', shape({ content: 'Launch', media: [cover.sha256] }), { media: [cover] });
    await applyNow(world, await planNow(world, [post]));
    // Another state (another clone, or a lost state file) uploads the same file to the same service.
    const other = { ...world, store: await StateStore.open(join(await testdir(), 'state.json'), world.target, { seal: testSeal(world.target) }) };
    // The post it would make may be the one there (its media unknown by content): a person chose to create it anyway.
    const result = await applyNow(other, await planNow(other, [post], { choices: { adopt: new Map(), recreate: { all: true, keys: new Set() } } }));
    expect(result.failed).toEqual([]);
    const uploads = (await world.api.requestLog()).filter((entry) => entry.method === 'POST' && entry.path.endsWith('/media/uploads'));
    expect(uploads).toHaveLength(2);
    expect(uploads.every((entry) => /^psync-.+/.test(entry.idempotencyKey ?? ''))).toBe(true);
    expect(uploads[0]!.idempotencyKey).not.toBe(uploads[1]!.idempotencyKey);
    expect(other.store.section.media[cover.sha256]!.mediaId).not.toBe(world.store.section.media[cover.sha256]!.mediaId);
  });
});
