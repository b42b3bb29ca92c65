import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { pushState } from '../../src/pipeline/state-home-sync.js';
import { recordStates } from '../../src/pipeline/state-record.js';
import { DEFAULT_PUSH_RETRY } from '../../src/state/push-retry.js';
import { git, gitEnv } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';
import { startGitHttpRemote } from './git-http-remote.js';

/**
 * The push loop of the branch home, run directly: several jobs push the state branch of one
 * remote over HTTP (git http-backend, as GitHub serves it) in the same instant. Git takes one ref
 * update at a time; every other push is rejected (`failed to update ref`, `reference already
 * exists`, not a fast-forward) and must fetch, merge and try again until all have landed.
 */

const TOKEN = 'ghs_push_race';
const TARGET = 'https://api.example.com/public/v1#demo';
const JOBS = 10;
/** The default waits, scaled down: a machine's git answers in milliseconds, GitHub's in a second. */
const QUICK = { ...DEFAULT_PUSH_RETRY, baseDelayMs: 20, maxDelayMs: 400 };

beforeEach(() => {
  // pushState runs git with process.env: the tests' identity, and the token as the workflow gives it.
  for (const [name, value] of Object.entries(gitEnv())) if (name.startsWith('GIT_')) vi.stubEnv(name, value!);
  vi.stubEnv('GIT_CONFIG_COUNT', '1');
  vi.stubEnv('GIT_CONFIG_KEY_0', 'http.extraheader');
  vi.stubEnv('GIT_CONFIG_VALUE_0', `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`);
});

function stateText(key: string): string {
  const posts = { [key]: { postId: `post-${key}`, file: `posts/${key}.md`, appliedHash: 'a'.repeat(64), remoteUpdatedAt: '2026-11-21T12:00:00Z', appliedAt: '2026-11-21T12:00:00Z' } };
  return `${JSON.stringify({ version: 1, targets: { [TARGET]: { apiUrl: 'https://api.example.com/public/v1', projectId: 'demo', posts, media: {}, pending: {}, uploads: {} } } }, null, 2)}\n`;
}

/** A remote whose main holds `folders` calendars with the branch home, and a clone per job with its calendar's state applied. */
async function repository(folders: string[], url: (bare: string) => Promise<string>): Promise<{ bare: string; clones: string[] }> {
  const bare = await testdir();
  await git(bare, 'init', '-q', '--bare', '--initial-branch=main', '.');
  const editor = await testdir();
  await git(editor, 'clone', '-q', bare, '.');
  for (const folder of folders) {
    await mkdir(join(editor, folder), { recursive: true });
    await writeFile(join(editor, folder, 'postsync.yaml'), 'timezone: UTC\nstate:\n  home: branch\n');
  }
  await git(editor, 'add', '.');
  await git(editor, 'commit', '-q', '-m', 'Calendars');
  await git(editor, 'push', '-q', 'origin', 'HEAD:main');
  const remoteUrl = await url(bare);
  const clones = await Promise.all(
    folders.map(async (folder) => {
      const clone = await testdir();
      await git(clone, 'clone', '-q', remoteUrl, '.');
      await mkdir(join(clone, folder, '.postsync'), { recursive: true });
      await writeFile(join(clone, folder, '.postsync/state.json'), stateText(`${folder.replace(/\W/g, '-')}-post`));
      return join(clone, folder);
    }),
  );
  return { bare, clones };
}

describe('the push loop of the state branch, with jobs pushing at once', () => {
  it(`${JOBS} jobs creating the branch in the same instant: every push lands, the branch holds all ${JOBS} states`, async () => {
    const folders = Array.from({ length: JOBS }, (_, index) => `clients/c${index + 1}`);
    let server: Awaited<ReturnType<typeof startGitHttpRemote>> | undefined;
    try {
      const { bare, clones } = await repository(folders, async (path) => (server = await startGitHttpRemote({ bare: path, token: TOKEN })).url);
      const outcomes = await Promise.allSettled(clones.map(async (calendar) => pushState(await loadConfig({ cwd: calendar, env: {} }), { remote: 'origin', merge: true, message: 'postsync: record applied posts', retry: { policy: QUICK } })));
      expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.kind : String(outcome.reason)))).toEqual(folders.map(() => 'pushed'));
      expect((await git(bare, 'ls-tree', '-r', '--name-only', 'postsync/state')).split('\n')).toEqual(folders.map((folder) => `${folder}/.postsync/state.json`).sort());
      for (const folder of folders) {
        const state = JSON.parse(await git(bare, 'show', `postsync/state:${folder}/.postsync/state.json`)) as { targets: Record<string, { posts: object }> };
        expect(Object.keys(state.targets[TARGET]!.posts)).toEqual([`${folder.replace(/\W/g, '-')}-post`]);
      }
      // Exactly one of them made the first, parentless commit; the others merged onto it.
      expect(await git(bare, 'rev-list', '--count', '--max-parents=0', 'postsync/state')).toBe('1');
    } finally {
      await server?.close();
    }
  }, 120_000);

  it('two record jobs (two merges\' fan-ins) pushing one commit each at once on the default branch: both land, each state merged', async () => {
    let server: Awaited<ReturnType<typeof startGitHttpRemote>> | undefined;
    try {
      const { bare, clones } = await repository(['clients/a', 'clients/b'], async (path) => (server = await startGitHttpRemote({ bare: path, token: TOKEN })).url);
      const fanIns = clones.map((calendar, n) => {
        const folder = n === 0 ? 'clients/a' : 'clients/b';
        const handoffs = ['x', 'y', 'z'].map((name) => ({ formatVersion: 1 as const, calendar: `${folder}/${name}`, home: 'file' as const, branch: 'main', path: `${folder}/${name}/.postsync/state.json`, state: stateText(`${folder}-${name}`.replace(/\W/g, '-')), base: null }));
        return recordStates(handoffs, { repository: { cwd: calendar, remote: 'origin' }, message: 'postsync: record applied posts [skip ci]', retry: { policy: QUICK } });
      });
      const records = (await Promise.all(fanIns)).flat();
      expect(records.map((record) => `${record.branch} ${record.kind} ${record.calendars.length}`)).toEqual(['main pushed 3', 'main pushed 3']);
      const files = (await git(bare, 'ls-tree', '-r', '--name-only', 'main')).split('\n').filter((path) => path.endsWith('state.json'));
      expect(files).toHaveLength(6);
      // One commit each, on top of the calendars' commit: nothing of the other was overwritten.
      expect(await git(bare, 'log', '--format=%s', 'main')).toBe('postsync: record applied posts [skip ci]\npostsync: record applied posts [skip ci]\nCalendars');
    } finally {
      await server?.close();
    }
  }, 120_000);
});
