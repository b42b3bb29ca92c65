import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, StateError } from '../../src/errors.js';
import { journalPathFor } from '../../src/state/journal.js';
import { StateStore } from '../../src/state/state-store.js';
import { readState, stateSectionHash } from '../../src/state/state-file.js';
import type { PendingCreate, PostRecord } from '../../src/state/types.js';
import { testdir } from '../helpers/testdir.js';
import { testSeal } from '../helpers/seal.js';

const local = { id: 'local:demo', apiUrl: 'http://127.0.0.1:1/public/v1', projectId: 'demo' };
const remote = { id: 'https://api.example.com/v1#acme', apiUrl: 'https://api.example.com/v1', projectId: 'acme' };
const at = '2026-01-01T00:00:00.000Z';
const sha = 'c'.repeat(64);

function postRecord(postId: string, file = 'posts/launch.md'): PostRecord {
  return { postId, file, appliedHash: 'a'.repeat(64), remoteUpdatedAt: at, appliedAt: at };
}

const pending: PendingCreate = {
  file: 'posts/launch.md',
  idempotencyKey: 'psync-abc',
  payload: { content: 'Launch', targets: [], mediaIds: [] },
  shapeHash: 'b'.repeat(64),
  startedAt: at,
};

async function openStore(target = local) {
  const dir = await testdir();
  const path = join(dir, '.postsync/state.json');
  return { dir, path, store: await StateStore.open(path, target, { seal: testSeal(target) }) };
}

describe('StateStore', () => {
  it('persists each change atomically: pending, confirm, update, move, remove', async () => {
    const { path, store } = await openStore();
    await store.recordPending('launch', pending);
    expect((await readState(path)).targets['local:demo']?.pending).toEqual({ launch: testSeal(local).sealed('pending', 'launch', pending) });

    await store.completeCreate('launch', postRecord('p1'));
    let section = (await readState(path)).targets['local:demo']!;
    expect(section.pending).toEqual({});
    expect(section.posts).toEqual({ launch: testSeal(local).sealed('posts', 'launch', postRecord('p1')) });

    await store.recordUpdate('launch', { ...postRecord('p1'), appliedHash: 'd'.repeat(64) });
    await store.moveKey('launch', 'launch', 'posts/2026/launch.md');
    expect(store.section.posts.launch?.file).toBe('posts/2026/launch.md');
    await store.moveKey('launch', 'launch-v2', 'posts/launch-v2.md');
    section = (await readState(path)).targets['local:demo']!;
    expect(section.posts).toEqual({ 'launch-v2': testSeal(local).sealed('posts', 'launch-v2', { ...postRecord('p1', 'posts/launch-v2.md'), appliedHash: 'd'.repeat(64) }) });

    await store.removePost('launch-v2');
    expect((await readState(path)).targets['local:demo']?.posts).toEqual({});
  });

  it('lets a pending create supersede the record of a post deleted remotely', async () => {
    const { path, store } = await openStore();
    await store.completeCreate('launch', postRecord('p1'));
    await store.recordPending('launch', pending);
    const section = (await readState(path)).targets['local:demo']!;
    expect(section.posts).toEqual({});
    expect(section.pending).toEqual({ launch: testSeal(local).sealed('pending', 'launch', pending) });
  });

  it('records media and multipart progress', async () => {
    const { path, store } = await openStore();
    await store.recordUpload(sha, { mediaId: 'm1', partSizeBytes: 8, partCount: 2, startedAt: at });
    expect((await readState(path)).targets['local:demo']?.uploads[sha]?.mediaId).toBe('m1');
    await store.recordMedia(sha, { mediaId: 'm1', sizeBytes: 16, contentType: 'video/mp4', uploadedAt: at });
    let section = (await readState(path)).targets['local:demo']!;
    expect(section.uploads).toEqual({});
    expect(section.media[sha]?.mediaId).toBe('m1');
    await store.recordUpload(sha, { mediaId: 'm2', partSizeBytes: 8, partCount: 2, startedAt: at });
    await store.clearUpload(sha);
    section = (await readState(path)).targets['local:demo']!;
    expect(section.uploads).toEqual({});
  });

  it('refuses a move onto a key that is taken, leaving the state as it was', async () => {
    const { path, store } = await openStore();
    await store.completeCreate('a', postRecord('p1', 'posts/a.md'));
    await store.completeCreate('b', postRecord('p2', 'posts/b.md'));
    const before = await readState(path);
    await expect(store.moveKey('a', 'b', 'posts/b.md')).rejects.toThrow(new StateError('cannot move "a" to "b": "b" is already in the state'));
    await store.recordPending('c', pending);
    await expect(store.moveKey('a', 'c', 'posts/c.md')).rejects.toThrow(/"c" is already in the state/);
    await store.removePost('c');
    await expect(store.moveKey('missing', 'c', 'posts/c.md')).rejects.toThrow(/"missing" is not in the state/);
    expect(await readState(path)).toEqual(before);
    await store.removePost('a');
    expect(Object.keys(store.section.posts)).toEqual(['b']);
  });

  it('serializes concurrent calls so that every change lands', async () => {
    const { path, store } = await openStore();
    await Promise.all(Array.from({ length: 25 }, (_, index) => store.completeCreate(`post-${index}`, postRecord(`p${index}`))));
    expect(Object.keys((await readState(path)).targets['local:demo']!.posts)).toHaveLength(25);
    expect((await readdir(join(path, '..'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps other targets, and writes stable sorted pretty JSON with a trailing newline', async () => {
    const { path, store } = await openStore(remote);
    await store.completeCreate('zeta', postRecord('p2'));
    await store.completeCreate('alpha', postRecord('p1'));
    await store.checkpoint();
    const localStore = await StateStore.open(path, local, { seal: testSeal(local) });
    await localStore.recordMedia(sha, { mediaId: 'm1', sizeBytes: 1, contentType: 'image/png', uploadedAt: at });
    await localStore.checkpoint();
    const text = await readFile(path, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "targets": {\n    "https://api.example.com/v1#acme": {\n      "apiUrl"');
    expect(text.indexOf('"alpha"')).toBeLessThan(text.indexOf('"zeta"'));
    expect(text.indexOf('"https://api.example.com/v1#acme"')).toBeLessThan(text.indexOf('"local:demo"'));

    // Reopening and re-recording the same data gives byte-identical output.
    const again = await StateStore.open(path, remote, { seal: testSeal(remote) });
    await again.recordUpdate('alpha', postRecord('p1'));
    await again.checkpoint();
    expect(await readFile(path, 'utf8')).toBe(text);
  });

  it('hashes the section like a fresh read does, empty or not', async () => {
    const { path, store } = await openStore();
    const emptyHash = store.sectionHash();
    await store.completeCreate('a', postRecord('p1'));
    expect(store.sectionHash()).not.toBe(emptyHash);
    const reread = (await readState(path)).targets['local:demo']!;
    expect(stateSectionHash(reread)).toBe(store.sectionHash());
  });

  it('rejects the calls of a failed write and writes their changes with the next one', async () => {
    const { path, store } = await openStore();
    await mkdir(join(journalPathFor(path), 'in-the-way'), { recursive: true });
    await expect(store.completeCreate('a', postRecord('p1'))).rejects.toThrow();
    await rm(journalPathFor(path), { recursive: true });
    await store.completeCreate('b', postRecord('p2'));
    expect(Object.keys((await readState(path)).targets['local:demo']!.posts)).toEqual(['a', 'b']);
  });

  it('folds a change whose journal append failed into the state file at the checkpoint', async () => {
    const { path, store } = await openStore();
    await mkdir(journalPathFor(path), { recursive: true });
    await expect(store.completeCreate('a', postRecord('p1'))).rejects.toThrow();
    await rm(journalPathFor(path), { recursive: true });
    await store.checkpoint();
    expect(Object.keys((await readState(path)).targets['local:demo']!.posts)).toEqual(['a']);
    expect(existsSync(journalPathFor(path))).toBe(false);
  });

  it('keeps the change of a failed append when the fold fails too, and writes it with the next fold', async () => {
    const { path, store } = await openStore();
    await mkdir(journalPathFor(path), { recursive: true });
    await expect(store.completeCreate('a', postRecord('p1'))).rejects.toThrow();
    await mkdir(join(path, 'in-the-way'), { recursive: true });
    await expect(store.checkpoint()).rejects.toThrow();
    await rm(path, { recursive: true });
    await rm(journalPathFor(path), { recursive: true });
    await store.checkpoint();
    expect(Object.keys((await readState(path)).targets['local:demo']!.posts)).toEqual(['a']);
  });

  it('appends nothing for a change that a fold in flight already wrote to the state file', async () => {
    const { path, store } = await openStore();
    const first = store.completeCreate('a', postRecord('p1'));
    // Let the first append start, then fold and change more while it is in flight.
    await new Promise((resolve) => setImmediate(resolve));
    const fold = store.checkpoint();
    const second = store.completeCreate('b', postRecord('p2'));
    await Promise.all([first, fold, second]);
    expect(Object.keys((await readState(path)).targets['local:demo']!.posts)).toEqual(['a', 'b']);
    expect(existsSync(journalPathFor(path))).toBe(false);
  });

  it('confirms a record only when it carries its seal, and seals one a person vouched for', async () => {
    const { path } = await openStore();
    const unsealed = { version: 1, targets: { [local.id]: { apiUrl: local.apiUrl, projectId: local.projectId, posts: { launch: postRecord('p1') }, media: {}, pending: {}, uploads: {} } } };
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, JSON.stringify(unsealed));
    const store = await StateStore.open(path, local, { seal: testSeal(local) });
    expect(store.confirms('posts', 'launch')).toBe(false);
    expect(store.confirms('posts', 'other')).toBe(false);
    await store.confirm('posts', 'launch');
    expect(store.confirms('posts', 'launch')).toBe(true);
    expect((await readState(path)).targets[local.id]!.posts.launch).toEqual(testSeal(local).sealed('posts', 'launch', postRecord('p1')));
    const error = await store.confirm('media', sha).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateError);
    expect((error as StateError).message).toBe(`cannot confirm media "${sha}": it is not in the state`);
  });

  it('refuses to open a state whose folder is a link, and to write through a link put there after it opened', async () => {
    const dir = await testdir();
    const elsewhere = await testdir();
    await symlink(elsewhere, join(dir, '.postsync'));
    await expect(StateStore.open(join(dir, '.postsync/state.json'), local, { seal: testSeal(local), root: dir })).rejects.toThrow(InputError);

    const project = await testdir();
    const store = await StateStore.open(join(project, '.postsync/state.json'), local, { seal: testSeal(local), root: project });
    await store.completeCreate('a', postRecord('p1'));
    await store.checkpoint();
    await rename(join(project, '.postsync'), join(elsewhere, 'moved'));
    await symlink(join(elsewhere, 'moved'), join(project, '.postsync'));
    await expect(store.completeCreate('b', postRecord('p2'))).rejects.toThrow(InputError);
    await expect(store.checkpoint()).rejects.toThrow(InputError);
    expect(await readdir(join(elsewhere, 'moved'))).toEqual(['state.json']);
    expect(Object.keys((await readState(join(elsewhere, 'moved/state.json'))).targets[local.id]!.posts)).toEqual(['a']);
  });

  it('never writes before the first change', async () => {
    const { dir } = await openStore();
    expect(await readdir(dir)).toEqual([]);
  });
});
