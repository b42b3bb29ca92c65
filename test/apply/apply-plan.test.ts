import { rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ApplyEvent } from '../../src/apply/events.js';
import { PostsyncError } from '../../src/errors.js';
import { journalPathFor } from '../../src/state/journal.js';
import { useEmulator } from '../helpers/emulator.js';
import { RefusingProxy } from '../helpers/refusing-proxy.js';
import { desired, shape } from '../helpers/fixtures.js';
import { applyNow, applyWorld, planNow, pngMedia, remotePosts, writes } from './apply-world.js';

const emulator = useEmulator();

const post = (key: string, content = key) => desired(key, shape({ content }));

function changeEvents(events: ApplyEvent[]): string[] {
  return events.flatMap((event) => ('change' in event ? [`${event.type} ${event.change.action}:${event.change.key}`] : []));
}

/** A world with the drafts `edit`, `old`, `gone` and `same` applied. */
async function appliedWorld() {
  const world = await applyWorld(emulator());
  await applyNow(world, await planNow(world, ['edit', 'old', 'gone', 'same'].map((key) => post(key))));
  await world.api.clearLog();
  return world;
}

describe('applyPlan', () => {
  it('runs creates, then updates, then moves, then deletes; never a noop, a blocked change or a skipped delete', async () => {
    const world = await appliedWorld();
    const unconnected = desired('blocked', shape({ targets: [{ socialAccountId: '00000000-0000-4000-8000-000000000009', options: {} }] }));
    const desiredPosts = [post('edit', 'edited'), post('renamed', 'old'), post('same'), post('new'), unconnected];
    const pruned = await planNow(world, desiredPosts, { prune: true });
    expect(pruned.changes.map((change) => `${change.action}:${change.key}`)).toEqual(['create:new', 'update:edit', 'move:renamed', 'delete:gone', 'blocked:blocked', 'noop:same']);
    // Listed in reverse, so only the applier can put them in order.
    const result = await applyNow(world, { ...pruned, changes: [...pruned.changes].reverse() });
    expect(changeEvents(result.events).filter((line) => line.startsWith('change-start'))).toEqual([
      'change-start create:new', 'change-start update:edit', 'change-start move:renamed', 'change-start delete:gone',
    ]);
    expect(result.applied.map((change) => change.key)).toEqual(['new', 'edit', 'renamed', 'gone']);
    expect(result.failed).toEqual([]);
    expect((await remotePosts(world)).map((live) => live.content).sort()).toEqual(['edited', 'new', 'old', 'same']);
    expect(Object.keys(world.store.section.posts).sort()).toEqual(['edit', 'new', 'renamed', 'same']);

    const skipping = await planNow(world, [], { prune: false });
    expect(skipping.changes.every((change) => change.action === 'noop' && change.reason === 'file-removed')).toBe(true);
    await world.api.clearLog();
    expect((await applyNow(world, skipping)).events).toEqual([]);
    expect(await writes(world)).toEqual([]);
  });

  it('reports each change done with its post id, and a failed change without stopping the others', async () => {
    const world = await appliedWorld();
    const plan = await planNow(world, [post('edit', 'edited'), post('old', 'old, edited'), post('new')]);
    const [edit] = (await remotePosts(world)).filter((live) => live.content === 'edit');
    await world.client.deletePost(edit!.id); // after planning: its update will fail
    const result = await applyNow(world, plan);
    expect(result.failed.map((failure) => failure.key)).toEqual(['edit']);
    expect(result.failed[0]!.error).toMatchObject({ status: 404 });
    expect(result.applied.map((change) => change.key).sort()).toEqual(['new', 'old']);
    const done = result.events.flatMap((event) => (event.type === 'change-done' ? [[event.change.key, event.postId]] : []));
    expect(done.sort()).toEqual([['new', world.store.section.posts.new!.postId], ['old', world.store.section.posts.old!.postId]].sort());
    expect(result.events.filter((event) => event.type === 'change-failed')).toEqual([{ type: 'change-failed', change: plan.changes.find((change) => change.key === 'edit'), error: result.failed[0]!.error }]);
  });

  it('reports a change failed, never done, when the state cannot record it', async () => {
    const world = await appliedWorld();
    const plan = await planNow(world, [post('edit'), post('renamed', 'old'), post('gone'), post('same')]);
    expect(plan.changes.filter((change) => change.action !== 'noop').map((change) => change.action)).toEqual(['move']);
    await blockJournal(world.statePath);
    const result = await applyNow(world, plan);
    expect(result.applied).toEqual([]);
    expect(result.failed.map((failure) => [failure.key, failure.error.message])).toEqual([['renamed', expect.stringContaining('it is a symbolic link')]]);
    expect(changeEvents(result.events)).toEqual(['change-start move:renamed', 'change-failed move:renamed']);
  });

  it('reports a state write that fails while its change still has requests in flight as that change failing', async () => {
    const api = emulator();
    const proxy = await RefusingProxy.start(api.baseUrl);
    onTestFinished(() => proxy.close());
    const world = await applyWorld(api, { baseUrl: proxy.baseUrl });
    const cover = await pngMedia(world, 'cover.png');
    const scheduled = desired('launch', shape({ content: 'Launch', scheduledAt: '2031-06-01T09:00:00.000Z', media: [cover.sha256] }), { media: [cover] });
    const plan = await planNow(world, [scheduled]);
    // The create is answered, then the state cannot be written: its record fails while the schedule's PATCH is sent.
    proxy.before(({ method, path }) => method === 'POST' && path === '/posts', () => blockJournal(world.statePath));
    const result = await applyNow(world, plan);
    expect(result.failed.map((failure) => [failure.key, failure.error.message])).toEqual([['launch', expect.stringContaining('it is a symbolic link')]]);
    expect(changeEvents(result.events)).toEqual(['change-start create:launch', 'change-failed create:launch']);
  });

  it('does not send a change whose media failed to upload, and says why', async () => {
    const world = await applyWorld(emulator());
    const cover = await pngMedia(world, 'cover.png');
    const plan = await planNow(world, [desired('with-media', shape({ media: [cover.sha256] }), { media: [cover] }), post('plain')]);
    await rm(join(world.root, 'cover.png'));
    const result = await applyNow(world, plan);
    const uploadFailure = result.events.find((event) => event.type === 'upload-failed');
    expect(uploadFailure).toMatchObject({ upload: plan.uploads[0] });
    expect(result.failed).toEqual([{ key: 'with-media', error: new PostsyncError('not sent: 1 of its media files failed to upload') }]);
    expect(result.failed[0]!.error.cause).toBe((uploadFailure as { error: Error }).error);
    expect(result.applied.map((change) => change.key)).toEqual(['plain']);
    expect((await remotePosts(world)).map((live) => live.content)).toEqual(['plain']);
    expect(result).toMatchObject({ uploadedFiles: 0, uploadedBytes: 0 });
  });

  it('counts the files and bytes it uploaded', async () => {
    const world = await applyWorld(emulator());
    const media = [await pngMedia(world, 'a.png', 1), await pngMedia(world, 'b.png', 2)];
    const result = await applyNow(world, await planNow(world, [desired('one', shape({ media: media.map((m) => m.sha256) }), { media })]));
    expect(result).toMatchObject({ failed: [], uploadedFiles: 2, uploadedBytes: media[0]!.sizeBytes + media[1]!.sizeBytes });
  });

  it('keeps at most `concurrency` changes in flight: by default several, one when asked', async () => {
    for (const concurrency of [undefined, 1]) {
      const world = await applyWorld(emulator());
      const inFlightAtStart: number[] = [];
      const plan = await planNow(world, ['a', 'b', 'c', 'd', 'e'].map((key) => post(key)));
      const result = await applyNow(world, plan, {
        ...(concurrency === undefined ? {} : { concurrency }),
        onEvent: (event) => {
          if (event.type === 'change-start') inFlightAtStart.push(Object.keys(world.store.section.pending).length);
        },
      });
      expect(result.failed).toEqual([]);
      if (concurrency === 1) expect(inFlightAtStart).toEqual([0, 0, 0, 0, 0]);
      else expect(Math.max(...inFlightAtStart)).toBe(3);
    }
  });
});

/**
 * Makes every later journal append of the store at `statePath` fail, as a full disk would, while the
 * journal can still be removed: its path is a link, which an append refuses to write through.
 */
async function blockJournal(statePath: string): Promise<void> {
  const journal = journalPathFor(statePath);
  await rm(journal, { force: true });
  await symlink(join(dirname(statePath), 'no-such-folder', 'journal'), journal);
}
