import { existsSync, readFileSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';

/**
 * A symbolic link in a project can be committed by anyone (a pull request): postsync never writes
 * through one. Each case plants a link pointing out of the project where postsync writes, runs the
 * real CLI, and checks the write was refused with an error naming the link and nothing landed
 * where the link points.
 */
const emulator = useEmulator();

const CONFIG = `timezone: UTC\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`;
const POST = '---\nscheduledAt: 2027-03-01 09:00\ntargets: [photo]\nmedia: [media/cover.png]\n---\nHello $(touch /tmp/pwned)\n';
const COVER = readFileSync(new URL('../../examples/media/cover.png', import.meta.url));

/** A project and, beside it, a folder standing for "anywhere else" on the machine. */
async function projectAndOutside(): Promise<{ dir: string; outside: string }> {
  const base = await testdir({ 'project/postsync.yaml': CONFIG, 'project/posts/hello.md': POST, 'project/media/cover.png': COVER, 'outside/keep.txt': 'untouched\n' });
  return { dir: join(base, 'project'), outside: join(base, 'outside') };
}

function postsync(dir: string, ...args: string[]) {
  return runCli(['-C', dir, '--api-url', emulator().baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
}

async function link(target: string, at: string): Promise<void> {
  await mkdir(join(at, '..'), { recursive: true });
  await symlink(target, at);
}

/** Plants a link in a fresh project, runs apply, and checks it failed naming the link at `linkAt`. */
async function applyRefused(plant: (dir: string, outside: string) => Promise<void>, linkAt: string): Promise<{ dir: string; outside: string }> {
  const where = await projectAndOutside();
  await plant(where.dir, where.outside);
  const result = await postsync(where.dir, 'apply', '--yes');
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(`refuses to write through ${join(where.dir, linkAt)}: it is a symbolic link`);
  return where;
}

/** What the outside folder holds: only what the test put there. */
async function expectUntouched(outside: string): Promise<void> {
  expect((await readdir(outside)).sort()).toEqual(['keep.txt']);
  expect(await readFile(join(outside, 'keep.txt'), 'utf8')).toBe('untouched\n');
}

describe('postsync never writes through a symbolic link', () => {
  it('apply refuses a dangling link at the state journal, and writes no post text where it points', async () => {
    const { dir, outside } = await applyRefused((project, elsewhere) => link(join(elsewhere, 'profile.sh'), join(project, '.postsync/state.json.journal')), '.postsync/state.json.journal');
    await expectUntouched(outside);
    // Refused before any change was sent: the post is still to be created.
    expect((await postsync(dir, 'plan')).stdout).toContain('1 to create');
  });

  it('apply refuses a link at state.json and a linked .postsync folder', async () => {
    await expectUntouched((await applyRefused((project, elsewhere) => link(join(elsewhere, 'state.json'), join(project, '.postsync/state.json')), '.postsync/state.json')).outside);
    await expectUntouched((await applyRefused((project, elsewhere) => link(elsewhere, join(project, '.postsync')), '.postsync')).outside);
  });

  it('state confirm refuses a linked .postsync folder before it writes a seal', async () => {
    const { dir, outside } = await projectAndOutside();
    await link(outside, join(dir, '.postsync'));
    const result = await postsync(dir, 'state', 'confirm', '--all', '--yes');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`refuses to write through ${join(dir, '.postsync')}: it is a symbolic link`);
    await expectUntouched(outside);
  });

  it('refuses to start the embedded local API in a linked .postsync/local-api folder', async () => {
    const { dir, outside } = await projectAndOutside();
    await link(outside, join(dir, '.postsync/local-api'));
    const result = await runCli(['-C', dir, 'plan'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`refuses to write through ${join(dir, '.postsync/local-api')}: it is a symbolic link`);
    await expectUntouched(outside);
  });

  it('refuses a `state:` outside the project in postsync.yaml, with its line, before anything runs', async () => {
    for (const state of ['../outside/state.json', '/tmp/postsync-elsewhere/state.json']) {
      const { dir, outside } = await projectAndOutside();
      await writeFile(join(dir, 'postsync.yaml'), `${CONFIG}state: ${state}\n`);
      const result = await postsync(dir, 'apply', '--yes');
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('postsync.yaml:4:8: `state` must be a path inside the project');
      await expectUntouched(outside);
      expect(existsSync('/tmp/postsync-elsewhere')).toBe(false);
    }
  });

  it('writes no cache through a linked .postsync/cache folder or its .gitignore', async () => {
    const { dir, outside } = await projectAndOutside();
    await link(outside, join(dir, '.postsync/cache'));
    let result = await postsync(dir, 'plan');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`postsync: the cache is not used this run: ${join(dir, '.postsync/cache')} is a symbolic link`);
    await expectUntouched(outside);

    const other = await projectAndOutside();
    // Files older than a couple of seconds: their stamps vouch for their bytes, so the memo has readings to save.
    const past = new Date(Date.now() - 3_600_000);
    for (const file of ['posts/hello.md', 'media/cover.png']) await utimes(join(other.dir, file), past, past);
    await link(join(other.outside, 'keep.txt'), join(other.dir, '.postsync/cache/.gitignore'));
    result = await postsync(other.dir, 'plan');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`postsync: the cache is not saved: postsync refuses to write through ${join(other.dir, '.postsync/cache/.gitignore')}: it is a symbolic link`);
    await expectUntouched(other.outside);
  });

  it('calendar refuses a linked default folder, its .gitignore, and a linked media/ folder in --out', async () => {
    const cases: { plant: (dir: string, outside: string) => Promise<void>; args: string[]; refused: string }[] = [
      { plant: (dir, outside) => link(outside, join(dir, '.postsync/calendar')), args: [], refused: '.postsync/calendar' },
      { plant: (dir, outside) => link(join(outside, 'keep.txt'), join(dir, '.postsync/calendar/.gitignore')), args: [], refused: '.postsync/calendar/.gitignore' },
      { plant: (dir, outside) => link(outside, join(dir, 'site/media')), args: ['--out', 'site'], refused: 'site/media' },
    ];
    for (const { plant, args, refused } of cases) {
      const { dir, outside } = await projectAndOutside();
      await plant(dir, outside);
      const result = await postsync(dir, 'calendar', ...args);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(`refuses to write through ${join(dir, refused)}: it is a symbolic link`);
      await expectUntouched(outside);
    }
  });

  it('import refuses to write post files into a linked folder', async () => {
    const { dir, outside } = await projectAndOutside();
    const created = await emulator().api('POST', '/posts', { body: { content: 'Made in the web app $(id)', mediaIds: [], targets: [{ socialAccountId: DEMO_ACCOUNTS.photo }] } });
    expect(created.status).toBe(201);
    await link(outside, join(dir, 'posts/imported'));
    const result = await postsync(dir, 'import');
    expect(result.code).not.toBe(0);
    expect(result.stdout).toContain(`refuses to write through ${join(dir, 'posts/imported')}: it is a symbolic link`);
    await expectUntouched(outside);
  });

  it('init refuses a linked .gitignore before writing anything', async () => {
    const { dir, outside } = await projectAndOutside();
    const fresh = join(dir, '..', 'fresh');
    await link(join(outside, 'keep.txt'), join(fresh, '.gitignore'));
    const result = await runCli(['init', '--dir', fresh], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`refuses to write through ${join(fresh, '.gitignore')}: it is a symbolic link`);
    await expectUntouched(outside);
    expect(await readdir(fresh)).toEqual(['.gitignore']);
    expect((await lstat(join(fresh, '.gitignore'))).isSymbolicLink()).toBe(true);
  });
});
