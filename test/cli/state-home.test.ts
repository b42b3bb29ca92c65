import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { git, gitEnv } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';

const TARGET = 'https://api.example.com/public/v1#demo';
const emulator = useEmulator();

/** A valid state with one post record per key. */
function stateText(keys: string[]): string {
  const posts = Object.fromEntries(keys.map((key, index) => [key, { postId: `post-${index}-${key.replace(/\W/g, '')}`, file: `posts/${key}.md`, appliedHash: 'a'.repeat(64), remoteUpdatedAt: '2026-11-21T12:00:00Z', appliedAt: `2026-11-21T12:00:0${index}Z` }]));
  return `${JSON.stringify({ version: 1, targets: { [TARGET]: { apiUrl: 'https://api.example.com/public/v1', projectId: 'demo', posts, media: {}, pending: {}, uploads: {} } } }, null, 2)}\n`;
}

const BRANCH_HOME = 'state:\n  home: branch\n';

/** A bare remote with main holding a calendar in `folder`, and a clone of it. */
async function repository(options: { folder?: string; config?: string } = {}): Promise<{ remote: string; clone: string; calendar: string }> {
  const remote = await testdir();
  await git(remote, 'init', '-q', '--bare', '--initial-branch=main', '.');
  const clone = await testdir();
  await git(clone, 'clone', '-q', remote, '.');
  const calendar = join(clone, options.folder ?? '.');
  await mkdir(join(calendar, 'posts'), { recursive: true });
  await writeFile(join(calendar, 'postsync.yaml'), `# The calendar of the team.\ntimezone: UTC\n${options.config ?? BRANCH_HOME}`);
  await git(clone, 'add', '.');
  await git(clone, 'commit', '-q', '-m', 'Start');
  await git(clone, 'push', '-q', 'origin', 'HEAD:main');
  return { remote, clone, calendar };
}

async function another(remote: string, folder = '.'): Promise<string> {
  const clone = await testdir();
  await git(clone, 'clone', '-q', remote, '.');
  return join(clone, folder);
}

const postsync = (cwd: string, ...args: string[]) => runCli(args, { cwd, env: { ...gitEnv(), POSTSYNC_API_URL: undefined } });
const postKeys = (text: string) => Object.keys((JSON.parse(text) as { targets: Record<string, { posts: object }> }).targets[TARGET]!.posts).sort();

describe('postsync state pull, push and show with the branch home', () => {
  it('push creates the branch with the state file alone at its path, show reads it there, pull brings it into another clone', async () => {
    const { remote, calendar } = await repository();
    await mkdir(join(calendar, '.postsync'), { recursive: true });
    await writeFile(join(calendar, '.postsync/state.json'), stateText(['2027-01/launch']));
    const pushed = await postsync(calendar, 'state', 'push');
    expect(pushed.stderr).toBe('');
    expect(pushed.stdout).toMatch(/^Pushed the state file to postsync\/state \(a new branch, commit [0-9a-f]{12}\)\.\n$/);
    expect(await git(remote, 'ls-tree', '-r', '--name-only', 'postsync/state')).toBe('.postsync/state.json');
    expect(await git(remote, 'rev-list', '--count', 'postsync/state')).toBe('1');
    expect(await git(remote, 'log', '-1', '--format=%s', 'postsync/state')).toBe('postsync: record applied posts');

    const elsewhere = await another(remote);
    const shown = await postsync(elsewhere, 'state', 'show', '--json');
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ command: 'state show', where: { kind: 'branch', branch: 'postsync/state', remote: 'origin', path: '.postsync/state.json', found: true }, sections: [{ targetId: TARGET, posts: 1, media: 0, pending: 0, uploads: 0 }] });
    expect(existsSync(join(elsewhere, '.postsync/state.json'))).toBe(false);
    const human = await postsync(elsewhere, 'state', 'show');
    expect(human.stdout).toContain('State home: .postsync/state.json on branch postsync/state of origin, commit ');
    expect(human.stdout).toContain(`Target ${TARGET}: 1 post, 0 media files, 0 pending creates, 0 unfinished uploads.`);
    // No API URL: no target to check the seals for, and no local API started to pretend one.
    expect(human.stdout).toContain('Seals: not checked.');
    expect(human.stdout).toContain('seals not checked: no API URL');
    expect(existsSync(join(elsewhere, '.postsync/local-api'))).toBe(false);

    const pulled = await postsync(elsewhere, 'state', 'pull');
    expect(pulled.stdout).toMatch(/^Pulled the state of postsync\/state \([0-9a-f]{12}\) into \.postsync\/state\.json\.\n$/);
    expect(postKeys(await readFile(join(elsewhere, '.postsync/state.json'), 'utf8'))).toEqual(['2027-01/launch']);
    // What a pull records is never committed by mistake: init ignores it.
    expect(await postsync(elsewhere, 'state', 'push')).toMatchObject({ code: 0, stdout: 'The state on postsync/state is already this one: nothing to push.\n' });
  }, 60_000);

  it('refuses to push over a branch that moved since the pull, and with --merge pushes the union, entry by entry', async () => {
    const { remote, calendar } = await repository();
    await mkdir(join(calendar, '.postsync'), { recursive: true });
    await writeFile(join(calendar, '.postsync/state.json'), stateText(['a']));
    expect((await postsync(calendar, 'state', 'push')).code).toBe(0);
    const other = await another(remote);
    expect((await postsync(other, 'state', 'pull')).code).toBe(0);
    await writeFile(join(other, '.postsync/state.json'), stateText(['a', 'b']));
    expect((await postsync(other, 'state', 'push')).code).toBe(0);

    await writeFile(join(calendar, '.postsync/state.json'), stateText(['a', 'c']));
    const refused = await postsync(calendar, 'state', 'push');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the state branch postsync/state moved (now at ');
    expect(refused.stderr).toContain('postsync state push --merge');
    expect(postKeys(await git(remote, 'show', 'postsync/state:.postsync/state.json'))).toEqual(['a', 'b']);

    const merged = await postsync(calendar, 'state', 'push', '--merge');
    expect(merged.code).toBe(0);
    expect(postKeys(await git(remote, 'show', 'postsync/state:.postsync/state.json'))).toEqual(['a', 'b', 'c']);
    expect(postKeys(await readFile(join(calendar, '.postsync/state.json'), 'utf8'))).toEqual(['a', 'b', 'c']);
  }, 60_000);

  it('keeps each calendar of a repository in its own file on the one branch', async () => {
    const { remote, clone } = await repository({ folder: 'clients/acme' });
    await mkdir(join(clone, 'clients/bolt/posts'), { recursive: true });
    await writeFile(join(clone, 'clients/bolt/postsync.yaml'), BRANCH_HOME);
    for (const [folder, key] of [['clients/acme', 'acme-post'], ['clients/bolt', 'bolt-post']] as const) {
      await mkdir(join(clone, folder, '.postsync'), { recursive: true });
      await writeFile(join(clone, folder, '.postsync/state.json'), stateText([key]));
    }
    expect((await postsync(join(clone, 'clients/acme'), 'state', 'push')).code).toBe(0);
    // bolt never pulled, and its file is not on the branch yet: nothing of acme's is touched.
    expect((await postsync(join(clone, 'clients/bolt'), 'state', 'push')).code).toBe(0);
    expect((await git(remote, 'ls-tree', '-r', '--name-only', 'postsync/state')).split('\n')).toEqual(['clients/acme/.postsync/state.json', 'clients/bolt/.postsync/state.json']);
    expect(postKeys(await git(remote, 'show', 'postsync/state:clients/acme/.postsync/state.json'))).toEqual(['acme-post']);
  }, 60_000);

  it('says where a file home lives instead of pulling, and refuses to push there, naming move-home', async () => {
    const { calendar } = await repository({ config: '' });
    expect(await postsync(calendar, 'state', 'pull')).toMatchObject({ code: 0, stdout: expect.stringContaining('(state home `file`): git pull brings it.') });
    const push = await postsync(calendar, 'state', 'push');
    expect(push.code).toBe(1);
    expect(push.stderr).toContain('postsync state move-home --to branch');
  }, 60_000);
});

describe('postsync state show', () => {
  it('checks the seals of its target\'s records with the API key, and names the records without a valid one', async () => {
    const { remote, calendar } = await repository();
    await mkdir(join(calendar, 'posts/2027-01'), { recursive: true });
    await writeFile(join(calendar, 'posts/2027-01/launch.md'), '---\ntargets: []\n---\nWe launch.\n');
    // A person's machine, whatever runs this test: the note below is for people, never for CI.
    const withKey = (cwd: string, ...args: string[]) => runCli(['--api-url', emulator().baseUrl, ...args], { cwd, env: { ...gitEnv(), POSTSYNC_API_KEY: DEMO_API_KEY, CI: undefined, GITHUB_ACTIONS: undefined } });
    const applied = await withKey(calendar, 'apply', '--yes');
    expect(applied.code).toBe(0);
    // A person's apply is not yet where CI reads the state: it says how to put it there.
    expect(applied.stderr).toContain('Note: this calendar keeps its state on the branch postsync/state: run postsync state push --merge to record this apply there');
    expect((await postsync(calendar, 'state', 'push')).code).toBe(0);

    const sealed = JSON.parse((await withKey(calendar, 'state', 'show', '--json')).stdout);
    expect(sealed).toMatchObject({ sealsChecked: true, sections: [{ posts: 1, unconfirmed: { posts: [], media: [], pending: [], uploads: [] } }] });
    expect((await withKey(calendar, 'state', 'show')).stdout).toContain('  Seals: all ok.');

    // Someone edits the record on the branch by hand: its seal no longer holds.
    const other = await another(remote);
    expect((await postsync(other, 'state', 'pull')).code).toBe(0);
    const state = JSON.parse(await readFile(join(other, '.postsync/state.json'), 'utf8'));
    const section = Object.values(state.targets)[0] as { posts: Record<string, { postId: string }> };
    section.posts['2027-01/launch']!.postId = 'someone-elses-post';
    await writeFile(join(other, '.postsync/state.json'), JSON.stringify(state));
    expect((await postsync(other, 'state', 'push')).code).toBe(0);
    const shown = await withKey(calendar, 'state', 'show');
    expect(shown.stdout).toContain('  Seals: 1 record unconfirmed (plans leave them alone until postsync state confirm): 2027-01/launch');
    // Without a key the state still shows; the seals are said to be unchecked.
    const keyless = JSON.parse((await runCli(['--api-url', emulator().baseUrl, 'state', 'show', '--json'], { cwd: calendar, env: { ...gitEnv(), CI: 'true' } })).stdout);
    expect(keyless).toMatchObject({ sealsChecked: false, sections: [{ posts: 1, unconfirmed: null }] });
  }, 60_000);
});

describe('postsync state move-home', () => {
  it('moves a calendar that has no state yet by rewriting postsync.yaml alone', async () => {
    const { remote, calendar } = await repository({ config: '' });
    const moved = await postsync(calendar, 'state', 'move-home', '--to', 'branch', '--branch', 'team/state');
    expect(moved.code).toBe(0);
    expect(moved.stdout).toContain('The state now lives on team/state of origin (there is no state yet: the first apply creates it there)');
    expect(await readFile(join(calendar, 'postsync.yaml'), 'utf8')).toBe('# The calendar of the team.\ntimezone: UTC\nstate:\n  home: branch\n  branch: team/state\n');
    expect(await git(remote, 'for-each-ref', '--format=%(refname)', 'refs/heads')).toBe('refs/heads/main');
  }, 60_000);

  it('moves the committed state to the branch and back in one command each way, rewriting postsync.yaml and keeping its comments', async () => {
    const { remote, calendar, clone } = await repository({ config: '' });
    await mkdir(join(calendar, '.postsync'), { recursive: true });
    await writeFile(join(calendar, '.postsync/state.json'), stateText(['kept']));
    await git(clone, 'add', '.postsync/state.json');
    await git(clone, 'commit', '-q', '-m', 'Applied');

    const toBranch = await postsync(calendar, 'state', 'move-home', '--to', 'branch');
    expect(toBranch.stderr).toBe('');
    expect(toBranch.stdout).toContain('The state now lives on postsync/state of origin');
    expect(await readFile(join(calendar, 'postsync.yaml'), 'utf8')).toBe('# The calendar of the team.\ntimezone: UTC\nstate:\n  home: branch\n');
    expect(postKeys(await git(remote, 'show', 'postsync/state:.postsync/state.json'))).toEqual(['kept']);
    expect((await git(clone, 'status', '--porcelain', '--', '.postsync/state.json')).split('\n')).toContain('D  .postsync/state.json');
    expect((await postsync(calendar, 'state', 'move-home', '--to', 'branch')).stderr).toContain('nothing to move');

    const toFile = await postsync(calendar, 'state', 'move-home', '--to', 'file');
    expect(toFile.code).toBe(0);
    expect(toFile.stdout).toContain('git push origin --delete postsync/state');
    expect(await readFile(join(calendar, 'postsync.yaml'), 'utf8')).toBe('# The calendar of the team.\ntimezone: UTC\n');
    expect(postKeys(await readFile(join(calendar, '.postsync/state.json'), 'utf8'))).toEqual(['kept']);
  }, 60_000);
});
