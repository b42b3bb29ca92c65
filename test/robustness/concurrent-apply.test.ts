import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { demoProject, post } from '../e2e/project.js';
import { runCli, startCli } from '../helpers/cli.js';
import { useEmulator, type TestEmulator } from '../helpers/emulator.js';
import { HoldingProxy } from '../helpers/holding-proxy.js';

/**
 * Two applies on one state: the state lock makes the second stop with a clear "locked" error
 * before it writes anything; a lock left by a SIGKILLed apply is recognised as stale, explained,
 * and taken over, and the interrupted create is resumed without a duplicate.
 */
const emulator = useEmulator();
const env = { POSTSYNC_API_KEY: DEMO_API_KEY };
let proxy: HoldingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

/**
 * The refusals a run may meet when others start at the same moment. "does not say who holds it"
 * is a live lock caught between its creation and the write of its owner (see the report of issue 7).
 */
const LOCKED = /holds the state lock|taking over the stale state lock|does not say who holds it/;

const isCreate = (method: string, path: string) => method === 'POST' && path.endsWith('/posts');
const writes = async (api: TestEmulator) => (await api.requestLog()).filter((entry) => entry.method !== 'GET');
const remoteContents = async (api: TestEmulator) => ((await api.api('GET', '/posts?limit=100')).body.data.items as { content: string }[]).map((p) => p.content).sort();

/**
 * A fresh project (`posts` files) and an apply through a holding proxy, paused with the lock held
 * on its first create (already done upstream). The proxy is closed after the test.
 */
async function heldApply(posts: Record<string, string>) {
  const api = emulator();
  await api.reset();
  const through = await HoldingProxy.start(api.baseUrl);
  proxy = through;
  const dir = await demoProject(posts);
  const held = through.holdNext(isCreate);
  const run = startCli(['--api-url', through.baseUrl, 'apply', '--yes'], { cwd: dir, env });
  expect((await held).status).toBe(201);
  return { api, dir, through, first: run };
}

/** Several CLI runs per test: a limit for a hung run, not a speed check (the suite may share a busy machine). */
describe('two applies on the same state', { timeout: 90_000 }, () => {
  it('the second stops with a clear "locked" error naming the holder, and sends no write', async () => {
    const { api, dir, through, first } = await heldApply({ 'launch.md': post({ body: 'We launch on Monday.' }) });
    await api.clearLog();

    const second = await runCli(['--api-url', through.baseUrl, 'apply', '--yes'], { cwd: dir, env });
    expect(second.code, second.stderr).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`another postsync apply \\(pid ${first.child.pid}, started [^)]+\\(\\+\\d\\d:\\d\\d\\)\\) holds the state lock .*state\\.json\\.lock`));
    expect(second.stderr).toContain('Wait for it to finish, or stop that process first.');
    expect(second.stdout).toBe('');
    expect(await writes(api)).toEqual([]);
    // The only request: the session read that opens every run, before the lock is taken.
    expect((await api.requestLog()).map((entry) => `${entry.method} ${entry.path}`)).toEqual(['GET /public/v1/auth/session']);

    first.child.kill('SIGKILL');
    await first.done;
  });

  it('a lock left by a SIGKILLed apply is detected, explained and taken over; the create resumes without a duplicate', async () => {
    const { api, dir, through, first } = await heldApply({ 'launch.md': post({ body: 'We launch on Monday.' }) });
    const lockPath = join(dir, '.postsync/state.json.lock');
    const owner = JSON.parse(await readFile(lockPath, 'utf8')) as { pid: number; command: string };
    expect(owner).toMatchObject({ pid: first.child.pid, command: 'apply' });
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    expect(existsSync(lockPath), 'a killed apply cannot remove its lock').toBe(true);

    const next = await runCli(['--api-url', through.baseUrl, 'apply', '--yes'], { cwd: dir, env });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain(`took over the state lock left by postsync apply (pid ${owner.pid}`);
    expect(next.stderr).toContain('which is no longer running');
    expect(existsSync(lockPath)).toBe(false);
    expect(await remoteContents(api)).toEqual(['We launch on Monday.']);
    const creates = (await api.requestLog()).filter((entry) => isCreate(entry.method, entry.path));
    expect(new Set(creates.map((entry) => entry.idempotencyKey)).size).toBe(1);
    expect((await runCli(['--api-url', through.baseUrl, 'plan', '--detailed-exitcode'], { cwd: dir, env })).code).toBe(0);
  });

  it('two runs that find the same stale lock: one takes it over, the other is refused or finds nothing left to do', async () => {
    const { api, dir, through, first } = await heldApply({ 'launch.md': post({ body: 'We launch on Monday.' }), 'teaser.md': post({ body: 'A first look.' }) });
    first.child.kill('SIGKILL');
    await first.done;

    const both = await Promise.all([0, 1].map(() => runCli(['--api-url', through.baseUrl, 'apply', '--yes'], { cwd: dir, env })));
    const context = both.map((run) => `${run.code}\n${run.stdout}\n${run.stderr}`).join('\n---\n');
    // Usually one takes the stale lock over; in a rare interleaving the other gets in between the
    // removal of the stale lock and the takeover's new one, with a plain lock. Never both.
    expect(both.filter((run) => run.stderr.includes('took over the state lock')).length, context).toBeLessThanOrEqual(1);
    for (const run of both) {
      if (run.code === 0) expect(run.stdout, context).toMatch(/Apply complete: 2 created|No changes\./);
      else expect(run.stderr, context).toMatch(LOCKED);
    }
    expect(both.some((run) => run.stdout.includes('Apply complete: 2 created')), context).toBe(true);
    expect(await remoteContents(api)).toEqual(['A first look.', 'We launch on Monday.']);
  });

  it('applies started together never duplicate a post, whichever gets the lock', async () => {
    const api = emulator();
    await api.reset();
    const dir = await demoProject({ 'a.md': post({ body: 'Post A.' }), 'b.md': post({ body: 'Post B.' }), 'c.md': post({ body: 'Post C.' }) });
    const runs = await Promise.all([0, 1, 2].map(() => runCli(['--api-url', api.baseUrl, 'apply', '--yes'], { cwd: dir, env })));
    for (const run of runs) {
      if (run.code === 0) continue;
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toMatch(LOCKED);
    }
    expect(runs.some((run) => run.stdout.includes('Apply complete: 3 created'))).toBe(true);
    expect(await remoteContents(api)).toEqual(['Post A.', 'Post B.', 'Post C.']);
    const state = JSON.parse(await readFile(join(dir, '.postsync/state.json'), 'utf8'));
    expect(Object.keys((Object.values(state.targets)[0] as { posts: object }).posts).sort()).toEqual(['a', 'b', 'c']);
  });

  it('a lock held on another host is never taken over: the message names the host and how to clear it', async () => {
    const api = emulator();
    await api.reset();
    const dir = await demoProject({ 'launch.md': post({ body: 'We launch on Monday.' }) });
    const lockPath = join(dir, '.postsync/state.json.lock');
    const lock = `${JSON.stringify({ pid: 4242, hostname: 'ci-runner-7', startedAt: '2026-11-20T10:00:00.000Z', command: 'apply' })}\n`;
    await mkdir(join(dir, '.postsync'), { recursive: true });
    await writeFile(lockPath, lock);
    await api.clearLog();
    const run = await runCli(['--api-url', api.baseUrl, 'apply', '--yes'], { cwd: dir, env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('another postsync apply (pid 4242, started Fri 20 Nov 2026, 11:00 (+01:00)) on host ci-runner-7 holds the state lock');
    expect(run.stderr).toContain(`If no postsync is running, remove it: rm '${lockPath}'`);
    expect(await writes(api)).toEqual([]);
    expect(await readFile(lockPath, 'utf8')).toBe(lock);
  });
});
