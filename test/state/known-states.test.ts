import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateError } from '../../src/errors.js';
import { readState, readStateSection, stateSectionHash, type KnownState, type KnownStates } from '../../src/state/state-file.js';
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
    const first = await readStateSection(path, target, { known });
    expect(first).toEqual({ section, hash: stateSectionHash(section) });
    const [entry] = [...known.entries.values()];
    expect(entry!.known.sectionHashes).toEqual({ [target.id]: stateSectionHash(section) });

    const again = await readStateSection(path, target, { known });
    expect(again).toEqual(first);
  });

  it('still refuses a damaged file: its digest is new, so it is validated', async () => {
    const dir = await testdir({ 'state.json': stateText });
    const path = join(dir, 'state.json');
    const known = memory();
    await readStateSection(path, target, { known });
    await writeFile(path, stateText.replace('"postId"', '"postID"'));
    await expect(readStateSection(path, target, { known })).rejects.toThrow(StateError);
    expect(new Set(known.asked).size).toBe(2);
  });

  it('does not validate a digest it knows (so an unchanged 10,000-post file is only parsed)', async () => {
    const path = join(await testdir({ 'state.json': stateText.replace('"postId"', '"postID"') }), 'state.json');
    const trustsAll: KnownStates = { get: () => ({ sectionHashes: {} }), set: () => undefined };
    await expect(readState(path)).rejects.toThrow(StateError);
    await expect(readStateSection(path, target, { known: trustsAll })).resolves.toMatchObject({ section: { projectId: 'demo' } });
  });

  it('hashes the section as always without known states', async () => {
    const path = join(await testdir({ 'state.json': stateText }), 'state.json');
    expect(await readStateSection(path, target)).toEqual({ section, hash: stateSectionHash(section) });
  });
});
