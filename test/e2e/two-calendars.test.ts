import { readFileSync } from 'node:fs';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { useEmulator, type TestEmulator } from '../helpers/emulator.js';
import { git } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';

/**
 * One repository with the calendars `a/` and `b/` (folders with a postsync.yaml) on one API
 * project: neither takes, rewrites or deletes a post the other records in its state.
 */
const emulator = useEmulator();
const env = { POSTSYNC_API_KEY: DEMO_API_KEY };
const COVER = readFileSync(new URL('../../examples/media/cover.png', import.meta.url));
const CONFIG = ['timezone: Europe/Berlin', 'accounts:', `  photo: ${DEMO_ACCOUNTS.photo}`, ''].join('\n');
const LAUNCH = '---\nscheduledAt: 2031-02-03 09:00\ntargets: [photo]\nmedia: [media/cover.png]\n---\nLaunch day, from calendar A.\n';
const WEEKLY = '---\nscheduledAt: 2031-01-06 09:00\ntargets: [photo]\nmedia: [media/cover.png]\nrepeat: { every: week, count: 2 }\n---\nEvery Monday, from calendar A.\n';

interface PlannedChange {
  action: string;
  reason: string;
  key: string;
  postId: string | null;
  reasons: string[];
}

/** The repository (a git work tree) with both calendars; `a/` applied once. */
async function repository(api: TestEmulator, files: Record<string, string>) {
  await api.reset();
  const top = await testdir({ 'a/postsync.yaml': CONFIG, 'b/postsync.yaml': CONFIG, 'a/media/cover.png': COVER, 'b/media/cover.png': COVER, ...files });
  await git(top, 'init', '--quiet');
  const cli = (folder: string) => (...args: string[]) => runCli(['--api-url', api.baseUrl, ...args], { cwd: join(top, folder), env });
  const a = cli('a');
  const b = cli('b');
  const applied = await a('apply', '--yes');
  expect(applied.code, applied.stderr + applied.stdout).toBe(0);
  const remote = async () => (await api.api('GET', '/posts?limit=100')).body.data.items as { id: string; content: string }[];
  return { top, a, b, remote };
}

const planOf = async (run: (...args: string[]) => Promise<CliResult>, ...args: string[]) => {
  const planned = await run('plan', '--json', ...args);
  return JSON.parse(planned.stdout) as { summary: Record<string, number>; changes: PlannedChange[] };
};

describe('two calendars of one repository on one API project', () => {
  it('b/ adopts neither an exact copy of a/\'s post nor of its repeat\'s occurrences: it creates its own, and a/ keeps its posts', async () => {
    const api = emulator();
    const { a, b, remote } = await repository(api, { 'a/posts/launch.md': LAUNCH, 'a/posts/weekly.md': WEEKLY, 'b/posts/launch.md': LAUNCH, 'b/posts/weekly.md': WEEKLY });
    const ofA = new Set((await remote()).map((post) => post.id));
    expect(ofA.size).toBe(3);
    const planned = await planOf(b);
    expect(planned.summary).toMatchObject({ adopt: 0, create: 3 });
    expect(planned.changes.filter((change) => change.postId !== null && ofA.has(change.postId))).toEqual([]);
    const applied = await b('apply', '--yes');
    expect(applied.code, applied.stderr).toBe(0);
    expect(await remote()).toHaveLength(6);
    expect((await a('plan')).stdout).toContain('No changes.');
  });

  it('a/\'s state copied into b/: blocked in both calendars naming the other, `state confirm` in b/ seals nothing, and --prune in b/ deletes nothing of a/', async () => {
    const api = emulator();
    const { top, a, b, remote } = await repository(api, { 'a/posts/launch.md': LAUNCH });
    const [launch] = await remote();
    await mkdir(join(top, 'b/.postsync'), { recursive: true });
    await copyFile(join(top, 'a/.postsync/state.json'), join(top, 'b/.postsync/state.json'));
    // b/ has no file for the record: with --prune its plan would delete the post.
    const inB = await planOf(b, '--prune');
    expect(inB.changes.map((change) => [change.action, change.reason, change.postId])).toEqual([['blocked', expect.stringMatching(/^(other-calendar|unconfirmed-record)$/), launch!.id]]);
    const inA = await planOf(a);
    expect(inA.changes.map((change) => [change.action, change.reason, change.postId])).toEqual([['blocked', 'other-calendar', launch!.id]]);
    expect(inA.changes[0]!.reasons.join(' ')).toContain('the calendar in b');

    const confirmed = await b('state', 'confirm', 'launch', '--yes');
    expect(confirmed.code).not.toBe(0);
    expect(confirmed.stderr).toContain('is recorded by the calendar in a');
    const applied = await b('apply', '--yes', '--prune');
    expect((await remote()).map((post) => post.id)).toEqual([launch!.id]);
    expect(applied.stdout).not.toMatch(/deleted 1|1 deleted/);

    // Once b/ forgets the copy, a/ acts on its post again.
    await rm(join(top, 'b/.postsync'), { recursive: true });
    expect((await a('plan')).stdout).toContain('No changes.');
  });

  it('`postsync import` in b/ offers none of a/\'s posts: it shows them as a/\'s', async () => {
    const api = emulator();
    const { b, remote } = await repository(api, { 'a/posts/launch.md': LAUNCH });
    const [launch] = await remote();
    const imported = await b('import', '--dry-run', '--json');
    expect(imported.code, imported.stderr).toBe(0);
    const report = JSON.parse(imported.stdout) as { imported: unknown[]; toDownload: unknown[]; otherCalendars: unknown[] };
    expect([report.imported, report.toDownload]).toEqual([[], []]);
    expect(report.otherCalendars).toEqual([{ postId: launch!.id, status: 'scheduled', calendar: 'a' }]);
    expect((await b('import', '--dry-run')).stdout).toContain('1 remote post managed by the calendar in a of this repository: not imported here.');
  });

  it('a root calendar with `content: .` neither reads the posts of a calendar in a subfolder nor adopts them', async () => {
    const api = emulator();
    await api.reset();
    const top = await testdir({ 'postsync.yaml': `${CONFIG}content: .\n`, 'media/cover.png': COVER, 'b/postsync.yaml': CONFIG, 'b/media/cover.png': COVER, 'b/posts/launch.md': LAUNCH });
    await git(top, 'init', '--quiet');
    const run = (folder: string) => (...args: string[]) => runCli(['--api-url', api.baseUrl, ...args], { cwd: join(top, folder), env });
    expect((await run('b')('apply', '--yes')).code).toBe(0);
    // The root's own copy of b/'s post, in a folder of its own.
    await mkdir(join(top, 'posts'));
    await copyFile(join(top, 'b/posts/launch.md'), join(top, 'posts/launch.md'));
    const planned = await planOf(run('.'));
    expect(planned.changes.map((change) => [change.action, change.key])).toEqual([['create', 'posts/launch']]);
  });
});
