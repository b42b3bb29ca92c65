import type * as fs from 'node:fs/promises';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { StateStore } from '../../src/state/state-store.js';
import { readState } from '../../src/state/state-file.js';
import type { PostRecord } from '../../src/state/types.js';
import { testdir } from '../helpers/testdir.js';
import { testSeal } from '../helpers/seal.js';

/** Every state file written (renamed into place), by path. */
const written = vi.hoisted(() => [] as string[]);

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  const { readlinkSync } = await import('node:fs');
  const rename: typeof real.rename = async (from, to) => {
    await real.rename(from, to);
    // A write reaches its folder through the folder's open descriptor (/proc/self/fd/N/name): by its path here.
    written.push(String(to).replace(/^\/proc\/self\/fd\/\d+/, (folder) => readlinkSync(folder)));
  };
  return { ...real, rename, default: { ...real, rename } };
});

const target = { id: 'local:demo', apiUrl: 'http://127.0.0.1:1/public/v1', projectId: 'demo' };
const at = '2026-01-01T00:00:00.000Z';
const postRecord = (postId: string): PostRecord => ({ postId, file: `posts/${postId}.md`, appliedHash: 'a'.repeat(64), remoteUpdatedAt: at, appliedAt: at });

async function openStore() {
  const path = join(await testdir(), 'state.json');
  return { path, store: await StateStore.open(path, target, { seal: testSeal(target) }), writes: () => written.filter((to) => to === path).length };
}

const keysOnDisk = async (path: string) => Object.keys((await readState(path)).targets['local:demo']?.posts ?? {});

describe('StateStore: group commit', () => {
  it('keeps changes made together and later in the journal, and writes the state file once, when folded', async () => {
    const { path, store, writes } = await openStore();
    await Promise.all(['a', 'b', 'c'].map((key) => store.completeCreate(key, postRecord(key))));
    await store.completeCreate('d', postRecord('d'));
    // Each change is on disk (in the journal) once its promise resolves; the state file is not rewritten per change.
    expect(await keysOnDisk(path)).toEqual(['a', 'b', 'c', 'd']);
    expect(writes()).toBe(0);
    await store.checkpoint();
    expect(writes()).toBe(1);
    expect(await keysOnDisk(path)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('resolves changes made while an append is in flight once they are on disk', async () => {
    const { path, store, writes } = await openStore();
    const first = store.completeCreate('a', postRecord('a'));
    // Let the first append start, then change more while it is in flight.
    await new Promise((resolve) => setImmediate(resolve));
    const later = [store.completeCreate('b', postRecord('b')), store.completeCreate('c', postRecord('c'))];
    await first;
    await Promise.all(later);
    expect(await keysOnDisk(path)).toEqual(['a', 'b', 'c']);
    expect(writes()).toBe(0);
  });

  it('flushes: resolves once the write in flight is done', async () => {
    const { path, store } = await openStore();
    void store.completeCreate('a', postRecord('a'));
    await store.flush();
    expect(await keysOnDisk(path)).toEqual(['a']);
  });

  it('flushes even when the last write failed; that write rejects its own calls', async () => {
    const { path, store } = await openStore();
    await mkdir(join(path, 'in-the-way'), { recursive: true });
    const failing = store.completeCreate('b', postRecord('b'));
    failing.catch(() => undefined);
    await expect(store.flush()).resolves.toBeUndefined();
    await expect(failing).rejects.toThrow();
    await rm(path, { recursive: true });
  });

  it('writes nothing for a change that is refused', async () => {
    const { store, writes } = await openStore();
    await expect(store.moveKey('missing', 'other', 'posts/other.md')).rejects.toThrow(/"missing" is not in the state/);
    expect(writes()).toBe(0);
  });
});
