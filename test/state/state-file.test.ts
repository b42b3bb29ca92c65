import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, StateError } from '../../src/errors.js';
import { emptyProjectState, normalizeApiUrl, readState, stateSectionId } from '../../src/state/state-file.js';
import { testdir } from '../helpers/testdir.js';

const validState = {
  version: 1,
  targets: {
    'local:demo': {
      ...emptyProjectState({ apiUrl: 'http://127.0.0.1:1/public/v1', projectId: 'demo' }),
      posts: {
        launch: { postId: 'p1', file: 'posts/launch.md', appliedHash: 'a'.repeat(64), remoteUpdatedAt: '2026-01-01T00:00:00.000Z', appliedAt: '2026-01-01T00:00:00.000Z' },
      },
    },
  },
};

async function expectStateError(text: string, message: RegExp): Promise<void> {
  const dir = await testdir({ '.postsync/state.json': text });
  const path = join(dir, '.postsync/state.json');
  const error = await readState(path).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(StateError);
  expect((error as StateError).message).toMatch(message);
  expect((error as StateError).hint).toMatch(/restore it from git/);
  expect(await readFile(path, 'utf8')).toBe(text);
}

describe('readState', () => {
  it('reads a missing file as an empty state', async () => {
    const dir = await testdir();
    expect(await readState(join(dir, 'nope/state.json'))).toEqual({ version: 1, targets: {} });
  });

  it('reads a valid file', async () => {
    const dir = await testdir({ 'state.json': JSON.stringify(validState) });
    expect(await readState(join(dir, 'state.json'))).toEqual(validState);
  });

  it('reads keys and paths outside ASCII as written, and a file that starts with a byte order mark is not JSON', async () => {
    const launch = validState.targets['local:demo'].posts.launch;
    const text = JSON.stringify({ ...validState, targets: { 'local:démo': { ...validState.targets['local:demo'], posts: { 'café/été 😀': { ...launch, file: 'posts/café/été 😀.md' } } } } });
    const dir = await testdir({ 'state.json': text });
    expect(await readState(join(dir, 'state.json'))).toEqual(JSON.parse(text));
    await expectStateError(`\ufeff${JSON.stringify(validState)}`, /is not valid JSON/);
  });

  it('refuses invalid JSON without touching the file', async () => {
    await expectStateError('{ "version": 1, ', /is not valid JSON/);
  });

  it('refuses merge conflict markers', async () => {
    await expectStateError(`{\n<<<<<<< HEAD\n  "version": 1\n=======\n>>>>>>> main\n}\n`, /unresolved git merge conflict markers/);
  });

  it('refuses a hand-mangled file, naming the problems', async () => {
    const mangled = structuredClone(validState) as { targets: Record<string, { posts: Record<string, Record<string, unknown>> }> };
    delete mangled.targets['local:demo']!.posts.launch!.postId;
    mangled.targets['local:demo']!.posts.launch!.appliedHash = 'not-a-hash';
    await expectStateError(JSON.stringify(mangled), /required property 'postId'[\s\S]*appliedHash: must match pattern/);
  });

  it('refuses a state written by a newer version', async () => {
    const dir = await testdir({ 'state.json': JSON.stringify({ version: 2, targets: {} }) });
    await expect(readState(join(dir, 'state.json'))).rejects.toThrow(/version 2; this postsync understands version 1/);
  });

  it('reports an unreadable path as StateError', async () => {
    const dir = await testdir();
    await expect(readState(dir)).rejects.toBeInstanceOf(StateError);
  });
});

describe('targetId', () => {
  it('identifies the embedded API by project only', () => {
    expect(stateSectionId({ apiUrl: 'http://127.0.0.1:41234/public/v1', projectId: 'demo', local: true })).toBe('local:demo');
  });

  it('normalizes remote URLs', () => {
    expect(stateSectionId({ apiUrl: 'HTTPS://API.Example.com:443/public/v1/', projectId: 'acme', local: false })).toBe(
      'https://api.example.com/public/v1#acme',
    );
    expect(normalizeApiUrl('https://user:secret@api.example.com/v1//')).toBe('https://api.example.com/v1');
    expect(() => normalizeApiUrl('not a url')).toThrow(InputError);
  });
});
