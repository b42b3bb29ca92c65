import { existsSync } from 'node:fs';
import { appendFile, copyFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateError } from '../../src/errors.js';
import { prettyCanonicalJson } from '../../src/state/hash.js';
import { JournalFile } from '../../src/state/journal-file.js';
import { journalBase, journalHeaderLine, journalLine, journalPathFor, parseJournal, readJournalSync, replayJournal, type JournalRecord } from '../../src/state/journal.js';
import { StateStore } from '../../src/state/state-store.js';
import { emptyStateFile, readState } from '../../src/state/state-file.js';
import type { PendingCreate, PostRecord } from '../../src/state/types.js';
import { testdir } from '../helpers/testdir.js';
import { testSeal } from '../helpers/seal.js';

const local = { id: 'local:demo', apiUrl: 'http://127.0.0.1:1/public/v1', projectId: 'demo' };
const at = '2026-01-01T00:00:00.000Z';

function postRecord(postId: string): PostRecord {
  return { postId, file: `posts/${postId}.md`, appliedHash: 'a'.repeat(64), remoteUpdatedAt: at, appliedAt: at };
}

function pendingCreate(key: string): PendingCreate {
  return { file: `posts/${key}.md`, idempotencyKey: `psync-${key}`, payload: { content: key, targets: [], mediaIds: [] }, shapeHash: 'b'.repeat(64), startedAt: at };
}

async function statePath(): Promise<string> {
  return join(await testdir(), '.postsync/state.json');
}

const record = (edits: JournalRecord['e']): JournalRecord => ({ t: local.id, u: local.apiUrl, p: local.projectId, e: edits });

describe('the state journal', () => {
  it('is where changes go; the state file is written only when the journal is folded', async () => {
    const path = await statePath();
    const store = await StateStore.open(path, local, { seal: testSeal(local) });
    await store.recordPending('a', pendingCreate('a'));
    await store.completeCreate('a', postRecord('a'));
    expect(existsSync(path)).toBe(false);
    expect(readJournalSync(journalPathFor(path))).toEqual({ base: journalBase(null), records: [expect.objectContaining({ t: 'local:demo' }), expect.objectContaining({ t: 'local:demo' })] });

    await store.checkpoint();
    expect(existsSync(journalPathFor(path))).toBe(false);
    const text = await readFile(path, 'utf8');
    expect(text).toBe(prettyCanonicalJson(JSON.parse(text)));
    expect(JSON.parse(text).targets['local:demo'].posts).toEqual({ a: testSeal(local).sealed('posts', 'a', postRecord('a')) });
    expect(JSON.parse(text).targets['local:demo'].pending).toEqual({});
  });

  it('written by a run that started with no state file names its base `none` (the format on disk), and is replayed', async () => {
    const path = await statePath();
    await mkdir(join(path, '..'), { recursive: true });
    const sealed = testSeal(local).sealed('posts', 'a', postRecord('a'));
    await writeFile(journalPathFor(path), `{"postsyncJournal":1,"base":"none"}\n${journalLine(record([['posts', 'a', sealed]]))}`);
    expect((await readState(path)).targets['local:demo']?.posts).toEqual({ a: sealed });
  });

  it('is replayed by readState without writing anything', async () => {
    const path = await statePath();
    const store = await StateStore.open(path, local, { seal: testSeal(local) });
    await store.completeCreate('a', postRecord('a'));
    await store.checkpoint();
    const folded = await readFile(path, 'utf8');
    await store.recordPending('b', pendingCreate('b'));
    await store.removePost('a');
    const journal = await readFile(journalPathFor(path), 'utf8');

    const section = (await readState(path)).targets['local:demo']!;
    expect(section.posts).toEqual({});
    expect(section.pending).toEqual({ b: testSeal(local).sealed('pending', 'b', pendingCreate('b')) });
    expect(await readFile(path, 'utf8')).toBe(folded);
    expect(await readFile(journalPathFor(path), 'utf8')).toBe(journal);
  });

  it('left by a killed run is folded when the next store opens, byte for byte as an uninterrupted run writes', async () => {
    const killed = await statePath();
    const dropped = await StateStore.open(killed, local, { seal: testSeal(local) });
    await dropped.recordPending('a', pendingCreate('a'));
    await dropped.completeCreate('a', postRecord('a'));
    await dropped.recordPending('b', pendingCreate('b'));
    // The run dies here: the store is simply dropped, as a SIGKILL leaves it.

    const next = await StateStore.open(killed, local, { seal: testSeal(local) });
    expect(existsSync(journalPathFor(killed))).toBe(false);
    expect(next.section.pending).toEqual({ b: testSeal(local).sealed('pending', 'b', pendingCreate('b')) });

    const clean = await statePath();
    const store = await StateStore.open(clean, local, { seal: testSeal(local) });
    await store.completeCreate('a', postRecord('a'));
    await store.recordPending('b', pendingCreate('b'));
    await store.checkpoint();
    expect(await readFile(killed, 'utf8')).toBe(await readFile(clean, 'utf8'));
  });

  it('drops a torn last line, and everything from the first line that is not a whole record', () => {
    const header = journalHeaderLine(journalBase(null));
    const a = journalLine(record([['posts', 'a', postRecord('a')]]));
    const b = journalLine(record([['posts', 'b', postRecord('b')]]));
    const count = (text: string) => parseJournal(header + text)?.records.length;
    expect(count(a + b.slice(0, -1))).toBe(1);
    expect(count(a + b.slice(0, 20))).toBe(1);
    expect(count(`${a}\u0000\u0000\u0000\n${b}`)).toBe(1);
    expect(count(`${a}{"t":"x"}\n${b}`)).toBe(1);
    expect(count(`${a}[["posts","a",{}]]\n${b}`)).toBe(1);
    expect(count(a + b)).toBe(2);
    expect(count('')).toBe(0);
    // Without a whole header nothing in it was acknowledged.
    expect(parseJournal(header.slice(0, -1))).toBeNull();
    expect(parseJournal(header.slice(0, 12))).toBeNull();
    expect(parseJournal(a + b)).toBeNull();
    expect(parseJournal('')).toBeNull();
  });

  it('replays harmlessly onto a state that already holds it (a fold cut short before the journal was removed)', () => {
    const records = [
      record([['pending', 'a', pendingCreate('a')]]),
      record([
        ['pending', 'a', null],
        ['posts', 'a', postRecord('a')],
      ]),
      record([
        ['posts', 'a', null],
        ['posts', 'renamed', postRecord('a')],
      ]),
    ];
    const once = replayJournal(emptyStateFile(), records);
    const snapshot = structuredClone(once);
    expect(replayJournal(once, records)).toEqual(snapshot);
    expect(snapshot.targets['local:demo']).toMatchObject({ apiUrl: local.apiUrl, projectId: 'demo', posts: { renamed: postRecord('a') }, pending: {} });
  });

  it('keeps what is changed while a fold is under way', async () => {
    const path = await statePath();
    const store = await StateStore.open(path, local, { seal: testSeal(local) });
    await store.completeCreate('a', postRecord('a'));
    const folding = store.checkpoint();
    const during = store.completeCreate('b', postRecord('b'));
    await Promise.all([folding, during]);
    expect(Object.keys((await readState(path)).targets['local:demo']!.posts)).toEqual(['a', 'b']);
    await store.checkpoint();
    expect(Object.keys(JSON.parse(await readFile(path, 'utf8')).targets['local:demo'].posts)).toEqual(['a', 'b']);
    expect((await readdir(join(path, '..'))).sort()).toEqual(['state.json']);
  });

  it('does not write the state file when nothing changed', async () => {
    const path = await statePath();
    const store = await StateStore.open(path, local, { seal: testSeal(local) });
    await store.checkpoint();
    expect(existsSync(path)).toBe(false);
  });

  it('appends after a whole line only: a journal ending in a torn line from a killed run is folded first', async () => {
    const path = await statePath();
    const store = await StateStore.open(path, local, { seal: testSeal(local) });
    await store.completeCreate('a', postRecord('a'));
    await appendFile(journalPathFor(path), journalLine(record([['posts', 'torn', postRecord('torn')]])).slice(0, 30));

    const next = await StateStore.open(path, local, { seal: testSeal(local) });
    await next.completeCreate('b', postRecord('b'));
    expect(Object.keys((await readState(path)).targets['local:demo']!.posts)).toEqual(['a', 'b']);
  });

  it('left behind by a fold cut short (the state file already holds it) is harmless', async () => {
    const path = await statePath();
    const store = await StateStore.open(path, local, { seal: testSeal(local) });
    await store.completeCreate('a', postRecord('a'));
    await store.recordPending('b', pendingCreate('b'));
    await copyFile(journalPathFor(path), `${path}.kept`);
    await store.checkpoint();
    const folded = await readFile(path, 'utf8');
    await copyFile(`${path}.kept`, journalPathFor(path));

    expect((await readState(path)).targets['local:demo']!.pending).toEqual({ b: testSeal(local).sealed('pending', 'b', pendingCreate('b')) });
    const next = await StateStore.open(path, local, { seal: testSeal(local) });
    expect(existsSync(journalPathFor(path))).toBe(false);
    expect(await readFile(path, 'utf8')).toBe(folded);
    expect(next.section.posts).toEqual({ a: testSeal(local).sealed('posts', 'a', postRecord('a')) });
  });

  it('that continues another state file than the one there and adds to it is refused, never replayed over it', async () => {
    const path = await statePath();
    const store = await StateStore.open(path, local, { seal: testSeal(local) });
    await store.completeCreate('a', postRecord('a'));
    await store.checkpoint();
    await store.completeCreate('b', postRecord('b'));
    // The state file is replaced (a checkout) while the run's journal is still there.
    const replaced = (await readFile(path, 'utf8')).replace('"a": {', '"c": {');
    await writeFile(path, replaced);
    await expect(readState(path)).rejects.toThrow(/was replaced after an interrupted postsync run wrote .*state\.json\.journal/);
    await expect(StateStore.open(path, local, { seal: testSeal(local) })).rejects.toThrow(StateError);
    expect(await readFile(path, 'utf8')).toBe(replaced);
  });

  it('starts a new journal afresh over whatever the file held', async () => {
    const path = join(await testdir(), 'state.json.journal');
    await writeFile(path, 'an old journal that was folded but not removed\n');
    const file = new JournalFile(path);
    await file.append('one\n', { fresh: true });
    await file.append('two\n', { fresh: false });
    expect(await readFile(path, 'utf8')).toBe('one\ntwo\n');
  });

  it('that cannot be read stops the read with a StateError', async () => {
    const path = await statePath();
    await mkdir(journalPathFor(path), { recursive: true });
    await expect(readState(path)).rejects.toThrow(StateError);
    await expect(readState(path)).rejects.toThrow(/cannot read the state journal/);
  });
});
