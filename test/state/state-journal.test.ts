import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateError } from '../../src/errors.js';
import { prettyCanonicalJson } from '../../src/state/hash.js';
import { journalLine, journalPathFor, parseJournal, readJournalSync, replayJournal, type JournalRecord } from '../../src/state/journal.js';
import { StateStore } from '../../src/state/state-store.js';
import { emptyStateFile, readState } from '../../src/state/store.js';
import type { PendingCreate, PostRecord } from '../../src/state/types.js';
import { testdir } from '../helpers/testdir.js';

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
    const store = await StateStore.open(path, local);
    await store.recordPending('a', pendingCreate('a'));
    await store.confirmCreate('a', postRecord('a'));
    expect(existsSync(path)).toBe(false);
    expect(readJournalSync(journalPathFor(path))).toHaveLength(2);

    await store.checkpoint();
    expect(existsSync(journalPathFor(path))).toBe(false);
    const text = await readFile(path, 'utf8');
    expect(text).toBe(prettyCanonicalJson(JSON.parse(text)));
    expect(JSON.parse(text).targets['local:demo'].posts).toEqual({ a: postRecord('a') });
    expect(JSON.parse(text).targets['local:demo'].pending).toEqual({});
  });

  it('is replayed by readState without writing anything', async () => {
    const path = await statePath();
    const store = await StateStore.open(path, local);
    await store.confirmCreate('a', postRecord('a'));
    await store.checkpoint();
    const folded = await readFile(path, 'utf8');
    await store.recordPending('b', pendingCreate('b'));
    await store.removePost('a');
    const journal = await readFile(journalPathFor(path), 'utf8');

    const section = (await readState(path)).targets['local:demo']!;
    expect(section.posts).toEqual({});
    expect(section.pending).toEqual({ b: pendingCreate('b') });
    expect(await readFile(path, 'utf8')).toBe(folded);
    expect(await readFile(journalPathFor(path), 'utf8')).toBe(journal);
  });

  it('left by a killed run is folded when the next store opens, byte for byte as an uninterrupted run writes', async () => {
    const killed = await statePath();
    const dropped = await StateStore.open(killed, local);
    await dropped.recordPending('a', pendingCreate('a'));
    await dropped.confirmCreate('a', postRecord('a'));
    await dropped.recordPending('b', pendingCreate('b'));
    // The run dies here: the store is simply dropped, as a SIGKILL leaves it.

    const next = await StateStore.open(killed, local);
    expect(existsSync(journalPathFor(killed))).toBe(false);
    expect(next.section.pending).toEqual({ b: pendingCreate('b') });

    const clean = await statePath();
    const store = await StateStore.open(clean, local);
    await store.confirmCreate('a', postRecord('a'));
    await store.recordPending('b', pendingCreate('b'));
    await store.checkpoint();
    expect(await readFile(killed, 'utf8')).toBe(await readFile(clean, 'utf8'));
  });

  it('drops a torn last line, and everything from the first line that is not a whole record', () => {
    const a = journalLine(record([['posts', 'a', postRecord('a')]]));
    const b = journalLine(record([['posts', 'b', postRecord('b')]]));
    expect(parseJournal(a + b.slice(0, -1))).toHaveLength(1);
    expect(parseJournal(a + b.slice(0, 20))).toHaveLength(1);
    expect(parseJournal(`${a}\u0000\u0000\u0000\n${b}`)).toHaveLength(1);
    expect(parseJournal(`${a}{"t":"x"}\n${b}`)).toHaveLength(1);
    expect(parseJournal(`${a}[["posts","a",{}]]\n${b}`)).toHaveLength(1);
    expect(parseJournal(a + b)).toHaveLength(2);
    expect(parseJournal('')).toEqual([]);
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
    const store = await StateStore.open(path, local);
    await store.confirmCreate('a', postRecord('a'));
    const folding = store.checkpoint();
    const during = store.confirmCreate('b', postRecord('b'));
    await Promise.all([folding, during]);
    expect(Object.keys((await readState(path)).targets['local:demo']!.posts)).toEqual(['a', 'b']);
    await store.checkpoint();
    expect(Object.keys(JSON.parse(await readFile(path, 'utf8')).targets['local:demo'].posts)).toEqual(['a', 'b']);
    expect((await readdir(join(path, '..'))).sort()).toEqual(['state.json']);
  });

  it('does not write the state file when nothing changed', async () => {
    const path = await statePath();
    const store = await StateStore.open(path, local);
    await store.checkpoint();
    expect(existsSync(path)).toBe(false);
  });

  it('appends after a whole line only: a journal ending in a torn line from a killed run is folded first', async () => {
    const path = await statePath();
    const store = await StateStore.open(path, local);
    await store.confirmCreate('a', postRecord('a'));
    await appendFile(journalPathFor(path), journalLine(record([['posts', 'torn', postRecord('torn')]])).slice(0, 30));

    const next = await StateStore.open(path, local);
    await next.confirmCreate('b', postRecord('b'));
    expect(Object.keys((await readState(path)).targets['local:demo']!.posts)).toEqual(['a', 'b']);
  });

  it('that cannot be read stops the read with a StateError', async () => {
    const path = await statePath();
    await mkdir(journalPathFor(path), { recursive: true });
    await expect(readState(path)).rejects.toThrow(StateError);
    await expect(readState(path)).rejects.toThrow(/cannot read the state journal/);
  });
});
