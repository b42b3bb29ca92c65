import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiClient, ApiError } from '../../src/api/index.js';
import { verifyPlanFresh } from '../../src/apply/freshness.js';
import { StalePlanError } from '../../src/errors.js';
import type { Plan } from '../../src/plan/types.js';
import { useEmulator } from '../helpers/emulator.js';
import { desired, shape } from '../helpers/fixtures.js';
import { applyNow, applyWorld, planNow, pngMedia, remotePosts, type ApplyWorld } from './apply-world.js';

const emulator = useEmulator();

/**
 * Three applied drafts (`edit`, `gone`, `same`), and a saved --prune plan that updates `edit`,
 * deletes `gone`, keeps `same` and creates `new` with a media file.
 */
async function savedPlan() {
  const world = await applyWorld(emulator());
  const posts = ['edit', 'gone', 'same'].map((key) => desired(key, shape({ content: key })));
  await applyNow(world, await planNow(world, posts));
  const cover = await pngMedia(world, 'cover.png');
  const plan = await planNow(world, [desired('edit', shape({ content: 'edited' })), posts[2]!, desired('new', shape({ content: 'new', media: [cover.sha256] }), { media: [cover] })], { prune: true });
  expect(plan.changes.map((change) => `${change.action}:${change.key}`)).toEqual(['create:new', 'update:edit', 'delete:gone', 'noop:same']);
  const ids = Object.fromEntries((await remotePosts(world)).map((post) => [post.content, post.id]));
  await world.api.clearLog();
  return { world, plan, ids };
}

function verify(world: ApplyWorld, plan: Plan, client = world.client) {
  return verifyPlanFresh({ plan, client, project: world.target, stateHash: world.store.sectionHash(), root: world.root });
}

describe('verifyPlanFresh', () => {
  it('accepts an unchanged world, reading only the posts the plan writes to, one by one', async () => {
    const { world, plan, ids } = await savedPlan();
    await verify(world, plan);
    const reads = (await world.api.requestLog()).map((entry) => `${entry.method} ${entry.path.replace(/^\/public\/v1/, '')}`);
    expect(reads.sort()).toEqual([`GET /posts/${ids.edit}`, `GET /posts/${ids.gone}`].sort());
  });

  it('refuses a plan whose posts changed or vanished on the remote, naming them', async () => {
    const { world, plan, ids } = await savedPlan();
    await world.client.updatePost(ids.edit!, { content: 'edited in the web app' });
    await world.client.deletePost(ids.gone!);
    const refusal = verify(world, plan);
    await expect(refusal).rejects.toThrow(StalePlanError);
    await expect(verify(world, plan)).rejects.toThrow('the plan is stale; remote posts changed since planning: edit (post changed on the remote), gone (post deleted on the remote)');
  });

  it('refuses a plan made against another state or target', async () => {
    const { world, plan } = await savedPlan();
    await expect(verifyPlanFresh({ plan, client: world.client, project: world.target, stateHash: 'f'.repeat(64), root: world.root })).rejects.toThrow(/the state file changed/);
    await expect(verifyPlanFresh({ plan, client: world.client, project: { ...world.target, projectId: 'other' }, stateHash: world.store.sectionHash(), root: world.root })).rejects.toThrow(StalePlanError);
  });

  it('surfaces a failure to read a post as itself, not as a stale plan', async () => {
    const { world, plan } = await savedPlan();
    const unauthorized = new ApiClient({ baseUrl: world.api.baseUrl, apiKey: 'not-a-key', maxAttempts: 1 });
    try {
      await expect(verify(world, plan, unauthorized)).rejects.toMatchObject({ status: 401 });
      await expect(verify(world, plan, unauthorized)).rejects.toBeInstanceOf(ApiError);
    } finally {
      await unauthorized.close();
    }
  });

  it('refuses a plan whose media files changed or vanished since planning, naming them in order', async () => {
    const world = await applyWorld(emulator());
    const [b, a] = [await pngMedia(world, 'b.png', 1), await pngMedia(world, 'a.png', 2)];
    const kept = await pngMedia(world, 'kept.png', 3);
    const plan = await planNow(world, [desired('one', shape({ media: [b.sha256, a.sha256, kept.sha256] }), { media: [b, a, kept] })]);
    await verify(world, plan);
    // The missing file is found first: only sorting puts it second.
    await writeFile(join(world.root, 'a.png'), 'other bytes');
    await rm(join(world.root, 'b.png'));
    await expect(verify(world, plan)).rejects.toThrow(new StalePlanError('media changed since the plan was made: a.png, b.png'));
  });
});
