import { readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/index.js';
import { RunCache } from '../../src/cache/run-cache.js';
import { loadConfig } from '../../src/config/load-config.js';
import { DEMO_ACCOUNTS, DEMO_API_KEY, demoFixture } from '../../src/emulator/index.js';
import { createPlanCaches } from '../../src/pipeline/plan-caches.js';
import { emptyProjectState } from '../../src/state/state-file.js';
import { desiredDiagnostics, readDesired } from '../../src/pipeline/read-desired.js';
import { demoProject, post } from '../e2e/project.js';
import { useEmulator } from '../helpers/emulator.js';

const active = useEmulator();
const photoDisconnected = demoFixture();
photoDisconnected.projects[0]!.accounts = photoDisconnected.projects[0]!.accounts!.map((account) => (account.id === DEMO_ACCOUNTS.photo ? { ...account, status: 'disconnected' } : account));
const disconnected = useEmulator({ fixture: photoDisconnected });

/** Every file of the project last changed long ago, so its stamp can vouch for its bytes. */
async function settleAll(dir: string): Promise<void> {
  const long = new Date('2026-01-01T00:00:00Z');
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) await utimes(join(entry.parentPath, entry.name), long, long);
  }
}

/** One run of readDesired as plan makes it: caches from .postsync/cache, saved at the end. */
async function desiredSide(dir: string, baseUrl: string) {
  const config = await loadConfig({ cwd: dir, env: {} });
  const kept = RunCache.open(dir, { enabled: true, build: 'test' });
  const client = new ApiClient({ baseUrl, apiKey: DEMO_API_KEY });
  try {
    const side = await readDesired({ config, client, now: new Date('2030-01-01T00:00:00Z'), caches: createPlanCaches(kept), schedule: { state: emptyProjectState({ apiUrl: 'local', projectId: 'demo' }), prune: false } });
    await kept.save();
    return side;
  } finally {
    await client.close();
  }
}

describe('the desired side, with the reading memo of earlier runs', () => {
  it('is the same warm as cold, and checked again under changed account rules', async () => {
    const dir = await demoProject({
      'photo.md': post({ body: 'A photo post.' }),
      'short.md': post({ body: 'A short.', targets: '[short]', media: '[media/teaser.mp4]' }),
    });
    await settleAll(dir);
    const cold = await desiredSide(dir, active().baseUrl);
    expect(cold.posts.map((p) => p.key)).toEqual(['photo', 'short']);
    const warm = await desiredSide(dir, active().baseUrl);
    expect(warm).toEqual(cold);

    const changedRules = await desiredSide(dir, disconnected().baseUrl);
    expect(changedRules.posts).toEqual(cold.posts);
    expect(desiredDiagnostics(changedRules).map((d) => `${d.file} ${d.code}`)).toEqual(['posts/photo.md account-unavailable']);
    const again = await desiredSide(dir, disconnected().baseUrl);
    expect(desiredDiagnostics(again)).toEqual(desiredDiagnostics(changedRules));
  });

  it('reads the rules of the accounts postsync.yaml names ahead, and keeps only those in use', async () => {
    const dir = await demoProject({ 'photo.md': post({ body: 'A photo post.' }) });
    await writeFile(join(dir, 'postsync.yaml'), `accounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n  ghost: 00000000-0000-4000-8000-000000000000\n`);
    const side = await desiredSide(dir, active().baseUrl);
    expect([...side.rules.capabilities.keys()]).toEqual([DEMO_ACCOUNTS.photo]);
    expect(side.rules.unknownAccounts.size).toBe(0);
    expect(desiredDiagnostics(side)).toEqual([]);
  });

  it('resolves the media again on every run: posts naming a changed media file change, a deleted one is reported', async () => {
    const dir = await demoProject({
      'a/one.md': post({ body: 'One.' }),
      'a/two.md': post({ body: 'Two.' }),
      'a/short.md': post({ body: 'A short.', targets: '[short]', media: '[media/teaser.mp4]' }),
      'b/three.md': post({ body: 'Three.', media: '[media/other.png]' }),
      'b/none.md': post({ body: 'No media.', targets: '[]', media: '[]' }),
    });
    await writeFile(join(dir, 'media/other.png'), await readFile(join(dir, 'media/cover.png')));
    await settleAll(dir);
    const cold = await desiredSide(dir, active().baseUrl);
    expect(cold.posts).toHaveLength(5);
    expect(desiredDiagnostics(cold)).toMatchObject([{ code: 'schedule-without-targets', file: 'posts/b/none.md', severity: 'warning' }]);
    expect((await desiredSide(dir, active().baseUrl)).posts).toEqual(cold.posts);

    // Another image under the same name: every post naming it has a new fingerprint.
    const png = await readFile(join(dir, 'media/cover.png'));
    await writeFile(join(dir, 'media/cover.png'), Buffer.concat([png, Buffer.from('trailing bytes')]));
    await utimes(join(dir, 'media/cover.png'), new Date('2026-01-02T00:00:00Z'), new Date('2026-01-02T00:00:00Z'));
    const edited = await desiredSide(dir, active().baseUrl);
    const fingerprints = (side: typeof cold) => Object.fromEntries(side.posts.map((p) => [p.key, p.fingerprint]));
    const changed = Object.keys(fingerprints(edited)).filter((key) => fingerprints(edited)[key] !== fingerprints(cold)[key]);
    expect(changed).toEqual(['a/one', 'a/two']);

    await rm(join(dir, 'media/other.png'));
    const deleted = await desiredSide(dir, active().baseUrl);
    expect(deleted.posts.map((p) => p.key)).toEqual(['a/one', 'a/short', 'a/two', 'b/none']);
    expect(desiredDiagnostics(deleted).map((d) => `${d.file} ${d.code}`)).toEqual(['posts/b/three.md media-not-found', 'posts/b/none.md schedule-without-targets']);
  });
});
