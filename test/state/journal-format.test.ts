import { mkdir, open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateError } from '../../src/errors.js';
import { prettyCanonicalJson } from '../../src/state/hash.js';
import { JournalFile } from '../../src/state/journal-file.js';
import { openNoFollow } from '../../src/write-guard/anchored-folder.js';
import { journalBase, journalHeaderLine, journalLine, parseJournal, readJournalSync, replayJournalOnto, type JournalRecord } from '../../src/state/journal.js';
import { mergeStateFiles } from '../../src/state/merge-files.js';
import { emptyStateFile, parseState } from '../../src/state/state-file.js';
import type { PostRecord, StateFile } from '../../src/state/types.js';
import { testdir } from '../helpers/testdir.js';

const at = '2026-01-01T00:00:00.000Z';
const target = { t: 'local:demo', u: 'http://127.0.0.1:1/public/v1', p: 'demo' };
const postRecord = (postId: string): PostRecord => ({ postId, file: `posts/${postId}.md`, appliedHash: 'a'.repeat(64), remoteUpdatedAt: at, appliedAt: at });
const whole: JournalRecord = { ...target, e: [['posts', 'a', postRecord('a')]] };

describe('a journal record', () => {
  // Each line below breaks exactly one part of a record: a reader must stop there, since a line
  // this code did not write whole was never acknowledged.
  const broken: [string, unknown][] = [
    ['a target id that is not a text', { ...whole, t: 1 }],
    ['an API URL that is not a text', { ...whole, u: null }],
    ['a project that is not a text', { ...whole, p: ['demo'] }],
    ['edits that are not a list', { ...whole, e: { posts: {} } }],
    ['an edit that is not a list', { ...whole, e: [{ field: 'posts' }] }],
    ['an edit of two parts', { ...whole, e: [['posts', 'a']] }],
    ['an edit of an unknown map', { ...whole, e: [['drafts', 'a', postRecord('a')]] }],
    ['an edit whose key is not a text', { ...whole, e: [['posts', 7, postRecord('a')]] }],
    ['an edit whose value is neither an object nor null', { ...whole, e: [['posts', 'a', 'p-a']] }],
    ['a second edit that is broken after a whole one', { ...whole, e: [['posts', 'a', postRecord('a')], ['posts', 'b']] }],
    ['an edit of four parts', { ...whole, e: [['posts', 'a', postRecord('a'), 'more']] }],
    ['an edit that only looks like a list', { ...whole, e: [{ length: 3, 0: 'posts', 1: 'a', 2: postRecord('a') }] }],
    ['an edit whose value is a number', { ...whole, e: [['posts', 'a', 5]] }],
    ['no record at all (null)', null],
    ['a text instead of a record', 'posts a'],
  ];
  it.each(broken)('ends the journal at %s', (_, line) => {
    const text = journalHeaderLine(journalBase(null)) + journalLine(whole) + `${JSON.stringify(line)}\n` + journalLine(whole);
    expect(parseJournal(text)?.records).toEqual([whole]);
  });

  it('keeps a removal (a null value) and a record of several edits', () => {
    const removal: JournalRecord = { ...target, e: [['posts', 'a', postRecord('a')], ['pending', 'a', null]] };
    expect(parseJournal(journalHeaderLine('none') + journalLine(removal))?.records).toEqual([removal]);
  });

  it('counts only after a whole header of this format', () => {
    const records = journalLine(whole);
    expect(parseJournal(`${JSON.stringify({ postsyncJournal: 2, base: 'none' })}\n${records}`)).toBeNull();
    expect(parseJournal(`${JSON.stringify({ postsyncJournal: 1, base: 42 })}\n${records}`)).toBeNull();
    expect(parseJournal(`${JSON.stringify({ postsyncJournal: 1 })}\n${records}`)).toBeNull();
    expect(parseJournal(`null\n${records}`)).toBeNull();
    expect(parseJournal(`${journalHeaderLine('none')}${records}`)).toEqual({ base: 'none', records: [whole] });
  });
});

describe('reading a journal', () => {
  it('that cannot be read says what it holds and what to do', async () => {
    const path = join(await testdir(), 'state.json.journal');
    await mkdir(path);
    let error: unknown;
    try {
      readJournalSync(path);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StateError);
    expect((error as StateError).message).toContain(`cannot read the state journal ${path}`);
    expect((error as StateError).hint).toContain('make it readable and run `postsync apply` again');
  });

  it('onto a state file that was replaced since refuses, naming both files and how to choose', () => {
    const journal = { base: journalBase('{"version":1,"targets":{}}'), records: [whole] };
    let error: unknown;
    try {
      replayJournalOnto(emptyStateFile(), journal, { text: 'another state', path: '/p/state.json' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StateError);
    expect((error as StateError).message).toContain('the state file /p/state.json was replaced after an interrupted postsync run wrote /p/state.json.journal');
    expect((error as StateError).hint).toContain('Put back the state file it continued');
    expect((error as StateError).hint).toContain('delete /p/state.json.journal');
  });
});

describe('the journal file', () => {
  it('appends to a journal it did not write, as found', async () => {
    const path = join(await testdir(), 'state.json.journal');
    await writeFile(path, 'x\n');
    await new JournalFile(path).append('y\n', { fresh: false });
    expect(await readFile(path, 'utf8')).toBe('x\ny\n');
  });

  it('cuts a torn append off before the next one, and a fresh journal forgets where it was cut', async () => {
    const dir = await testdir();
    const path = join(dir, 'state.json.journal');
    // The disk is full while `full` is set: the append fails once the file is open.
    let full = false;
    const file = new JournalFile(path, { open: (at, options) => (full ? open('/dev/full', 'a') : openNoFollow(at, options)) });
    await file.append('one\n', { fresh: true });
    full = true;
    await expect(file.append('two\n', { fresh: false })).rejects.toThrow(/ENOSPC/);
    full = false;
    // A torn line may be left behind.
    await writeFile(path, 'one\ntw');
    await file.append('three\n', { fresh: false });
    expect(await readFile(path, 'utf8')).toBe('one\nthree\n');
    await file.append('four\n', { fresh: false });
    expect(await readFile(path, 'utf8')).toBe('one\nthree\nfour\n');

    full = true;
    await expect(file.append('five\n', { fresh: false })).rejects.toThrow(/ENOSPC/);
    full = false;
    await file.append('new\n', { fresh: true });
    await file.append('next\n', { fresh: false });
    expect(await readFile(path, 'utf8')).toBe('new\nnext\n');
  });

  it('is removed once folded; a missing one is no error, any other failure is', async () => {
    const dir = await testdir();
    const file = new JournalFile(join(dir, 'state.json.journal'));
    await file.append('one\n', { fresh: true });
    await file.remove();
    await file.remove();
    const folder = new JournalFile(join(dir, 'a-folder'));
    await mkdir(join(dir, 'a-folder'));
    await expect(folder.remove()).rejects.toThrow(/EISDIR|EPERM/);
  });
});

describe('the state merge driver, in process', () => {
  const state = (posts: Record<string, PostRecord>): StateFile => ({ version: 1, targets: { 'local:demo': { apiUrl: target.u, projectId: 'demo', posts, media: {}, pending: {}, uploads: {} } } });

  it('merges without a common ancestor (git passes an empty file) and writes the canonical state over ours', async () => {
    const dir = await testdir();
    const files = { base: join(dir, 'O'), ours: join(dir, 'A'), theirs: join(dir, 'B') };
    await writeFile(files.base, '\n');
    await writeFile(files.ours, JSON.stringify(state({ a: postRecord('a') })));
    await writeFile(files.theirs, JSON.stringify(state({ b: postRecord('b') })));
    expect(await mergeStateFiles(files)).toEqual([]);
    const text = await readFile(files.ours, 'utf8');
    expect(text).toBe(prettyCanonicalJson(state({ a: postRecord('a'), b: postRecord('b') })));
    expect(await parseState(text, 'A')).toEqual(state({ a: postRecord('a'), b: postRecord('b') }));
  });

  it('takes an empty side as a state with nothing yet', async () => {
    const dir = await testdir();
    const files = { base: join(dir, 'O'), ours: join(dir, 'A'), theirs: join(dir, 'B') };
    await writeFile(files.base, '');
    await writeFile(files.ours, '');
    await writeFile(files.theirs, JSON.stringify(state({ b: postRecord('b') })));
    await mergeStateFiles(files);
    expect(JSON.parse(await readFile(files.ours, 'utf8'))).toEqual(state({ b: postRecord('b') }));
  });

  it('refuses a version it cannot read or parse, naming which one, and leaves ours as it was', async () => {
    const dir = await testdir();
    const files = { base: join(dir, 'O'), ours: join(dir, 'A'), theirs: join(dir, 'missing') };
    await writeFile(files.base, '');
    await writeFile(files.ours, JSON.stringify(state({})));
    const unreadable = await mergeStateFiles(files).catch((error: unknown) => error);
    expect(unreadable).toBeInstanceOf(StateError);
    expect((unreadable as StateError).message).toContain(`cannot read the other branch state ${files.theirs}`);
    expect(((unreadable as StateError).cause as NodeJS.ErrnoException).code).toBe('ENOENT');
    await writeFile(join(dir, 'broken'), '{ "version": 1, ');
    await expect(mergeStateFiles({ ...files, theirs: join(dir, 'broken') })).rejects.toThrow(`${join(dir, 'broken')} (the other branch)`);
    await expect(mergeStateFiles({ ...files, base: join(dir, 'gone'), theirs: join(dir, 'broken') })).rejects.toThrow(StateError);
    await expect(mergeStateFiles({ base: files.base, ours: join(dir, 'gone-too'), theirs: files.ours })).rejects.toThrow('cannot read this branch state');
    await expect(mergeStateFiles({ base: join(dir, 'gone'), ours: files.ours, theirs: files.ours })).rejects.toThrow('cannot read the common ancestor state');
    expect(JSON.parse(await readFile(files.ours, 'utf8'))).toEqual(state({}));
  });
});
