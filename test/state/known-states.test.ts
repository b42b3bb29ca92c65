import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateError } from '../../src/errors.js';
import { readState, sectionHashOf, stateSectionHash, type KnownState, type KnownStates } from '../../src/state/store.js';
import { testdir } from '../helpers/testdir.js';

const target = { id: 'local:demo', apiUrl: 'http://127.0.0.1:1/public/v1', projectId: 'demo' };
const section = {
  apiUrl: target.apiUrl,
  projectId: 'demo',
  posts: { launch: { postId: '0b5f7c1e-8f43-4e2c-9a41-7c1d2e3f4a5b', file: 'posts/launch.md', appliedHash: 'a'.repeat(64), remoteUpdatedAt: '2026-01-02T00:00:00.000Z', appliedAt: '2026-01-02T00:00:00.000Z' } },
  media: {},
  pending: {},
  uploads: {},
};
const stateText = JSON.stringify({ version: 1, targets: { [target.id]: section } });

/** An in-memory KnownStates that records what it was asked. */
function memory(): KnownStates & { asked: string[]; entries: Map<string, { digest: string; known: KnownState }> } {
  const entries = new Map<string, { digest: string; known: KnownState }>();
  const asked: string[] = [];
  return {
    entries,
    asked,
    get: (path, digest) => {
      asked.push(digest);
      const entry = entries.get(path);
      return entry?.digest === digest ? entry.known : undefined;
    },
    set: (path, digest, known) => void entries.set(path, { digest, known }),
  };
}

describe('state files this build has validated', () => {
  it('remembers a valid file by digest, with the section hashes worked out from it', async () => {
    const path = join(await testdir({ 'state.json': stateText }), 'state.json');
    const known = memory();
    const first = await readState(path, { known });
    expect(sectionHashOf(first, target)).toBe(stateSectionHash(section));
    const [entry] = [...known.entries.values()];
    expect(entry!.known.sectionHashes).toEqual({ [target.id]: stateSectionHash(section) });

    const again = await readState(path, { known });
    expect(again).toEqual(first);
    expect(sectionHashOf(again, target)).toBe(stateSectionHash(section));
  });

  it('still refuses a damaged file: its digest is new, so it is validated', async () => {
    const dir = await testdir({ 'state.json': stateText });
    const path = join(dir, 'state.json');
    const known = memory();
    await readState(path, { known });
    await writeFile(path, stateText.replace('"postId"', '"postID"'));
    await expect(readState(path, { known })).rejects.toThrow(StateError);
    expect(new Set(known.asked).size).toBe(2);
  });

  it('does not validate a digest it knows (so an unchanged 10,000-post file is only parsed)', async () => {
    const path = join(await testdir({ 'state.json': stateText.replace('"postId"', '"postID"') }), 'state.json');
    const trustsAll: KnownStates = { get: () => ({ sectionHashes: {} }), set: () => undefined };
    await expect(readState(path)).rejects.toThrow(StateError);
    await expect(readState(path, { known: trustsAll })).resolves.toMatchObject({ version: 1 });
  });

  it('hashes sections of a state it did not read itself as always', () => {
    const state = { version: 1 as const, targets: { [target.id]: section } };
    expect(sectionHashOf(state, target)).toBe(stateSectionHash(section));
  });
});
