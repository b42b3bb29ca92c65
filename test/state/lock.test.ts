import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LockedError } from '../../src/errors.js';
import { acquireLock, lockPathFor } from '../../src/state/lock.js';
import { testdir } from '../helpers/testdir.js';

async function statePath(): Promise<string> {
  return join(await testdir(), '.postsync/state.json');
}

async function lockError(path: string): Promise<LockedError> {
  const error = await acquireLock(path).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(LockedError);
  return error as LockedError;
}

/** A pid that just exited, so it belongs to no running process. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

/** Writes a lock file as another run would have left it. */
async function writeLock(path: string, lock: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(lockPathFor(path), typeof lock === 'string' ? lock : JSON.stringify(lock));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('acquireLock', () => {
  it("names when the holder started on the project's clock", async () => {
    const path = await statePath();
    await writeLock(path, { pid: process.pid, hostname: `${hostname()}-elsewhere`, startedAt: '2026-01-02T03:04:05.000Z', command: 'apply' });
    const error = await acquireLock(path, { timezone: 'Europe/Berlin' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LockedError);
    expect((error as LockedError).message).toContain('(pid ');
    expect((error as LockedError).message).toContain(', started Fri 2 Jan 2026, 04:04:05 (+01:00)) on host');
  });

  it('writes who holds the lock and releases it', async () => {
    const path = await statePath();
    const release = await acquireLock(path, { command: 'apply' });
    const owner = JSON.parse(await readFile(lockPathFor(path), 'utf8')) as Record<string, unknown>;
    expect(owner).toMatchObject({ pid: process.pid, hostname: hostname(), command: 'apply' });
    expect(Number.isNaN(Date.parse(String(owner.startedAt)))).toBe(false);
    await release();
    await release();
    expect(existsSync(lockPathFor(path))).toBe(false);
    await (await acquireLock(path))();
  });

  it('refuses a second holder while the first is alive', async () => {
    const path = await statePath();
    const release = await acquireLock(path, { command: 'apply' });
    const error = await lockError(path);
    expect(error.message).toMatch(new RegExp(`^another postsync apply \\(pid ${process.pid}, started .+\\) holds the state lock`));
    expect(error.hint).toMatch(/Wait for it to finish/);
    await release();
  });

  it('takes over a lock left by a dead process of this host, and reports whose it was', async () => {
    const path = await statePath();
    const pid = deadPid();
    const lock = { pid, hostname: hostname(), startedAt: '2026-01-01T00:00:00.000Z', command: 'apply' };
    await acquireLock(path).then((release) => release());
    await writeFile(lockPathFor(path), JSON.stringify(lock));
    const stale: unknown[] = [];
    const release = await acquireLock(path, { command: 'apply', onStaleLock: (owner) => stale.push(owner) });
    expect(stale).toEqual([lock]);
    expect(JSON.parse(await readFile(lockPathFor(path), 'utf8'))).toMatchObject({ pid: process.pid });
    expect(existsSync(`${lockPathFor(path)}.takeover`)).toBe(false);
    await release();
  });

  it('names the guard to remove when a takeover is in the way', async () => {
    const path = await statePath();
    await writeLock(path, { pid: deadPid(), hostname: hostname(), startedAt: 'x', command: 'apply' });
    await writeFile(`${lockPathFor(path)}.takeover`, '');
    expect((await lockError(path)).hint).toBe(`Try again in a moment. If none is running, remove ${lockPathFor(path)}.takeover.`);
  });

  it('refuses a stale lock while another run is taking it over', async () => {
    const path = await statePath();
    const lock = { pid: deadPid(), hostname: hostname(), startedAt: '2026-01-01T00:00:00.000Z', command: 'apply' };
    await acquireLock(path).then((release) => release());
    await writeFile(lockPathFor(path), JSON.stringify(lock));
    await writeFile(`${lockPathFor(path)}.takeover`, '');
    expect((await lockError(path)).message).toMatch(/another postsync is taking over the stale state lock/);
    expect(JSON.parse(await readFile(lockPathFor(path), 'utf8'))).toEqual(lock);
  });

  it('defaults the command to apply, and says how long a holder has run', async () => {
    const path = await statePath();
    const release = await acquireLock(path);
    expect(JSON.parse(await readFile(lockPathFor(path), 'utf8'))).toMatchObject({ command: 'apply' });
    await release();
    const plan = await acquireLock(path, { command: 'plan' });
    expect((await lockError(path)).message).toMatch(/^another postsync plan \(pid \d+, started /);
    await plan();
  });

  it('releases once: a second call never removes the lock of the run that holds it now', async () => {
    const path = await statePath();
    const first = await acquireLock(path, { command: 'first' });
    await first();
    const second = await acquireLock(path, { command: 'second' });
    await first();
    expect(JSON.parse(await readFile(lockPathFor(path), 'utf8'))).toMatchObject({ command: 'second' });
    await second();
  });

  it('releases quietly a lock that was already removed by hand', async () => {
    const path = await statePath();
    const release = await acquireLock(path);
    await rm(lockPathFor(path));
    await expect(release()).resolves.toBeUndefined();
  });

  it('never takes over the lock of another host, even when the same pid is dead here', async () => {
    const path = await statePath();
    const lock = { pid: deadPid(), hostname: `not-${hostname()}`, startedAt: '2026-01-01T00:00:00.000Z', command: 'apply' };
    await writeLock(path, lock);
    const error = await lockError(path);
    expect(error.message).toBe(`another postsync apply (pid ${lock.pid}, started Thu 1 Jan 2026, 00:00 (+00:00)) on host ${lock.hostname} holds the state lock ${lockPathFor(path)}`);
    expect(error.hint).toBe(`If no postsync is running, remove it: rm '${lockPathFor(path)}'`);
    expect(JSON.parse(await readFile(lockPathFor(path), 'utf8'))).toEqual(lock);
  });

  it('takes over a stale lock without a listener', async () => {
    const path = await statePath();
    await writeLock(path, { pid: deadPid(), hostname: hostname(), startedAt: '2026-01-01T00:00:00.000Z', command: 'apply' });
    const release = await acquireLock(path);
    expect(JSON.parse(await readFile(lockPathFor(path), 'utf8'))).toMatchObject({ pid: process.pid });
    await release();
  });

  it('fills in what an old lock file leaves out', async () => {
    const path = await statePath();
    await writeLock(path, { pid: process.pid, hostname: hostname() });
    expect((await lockError(path)).message).toMatch(new RegExp(`^another postsync run \\(pid ${process.pid}, started at an unknown time\\) holds`));
  });

  it.each([
    ['no pid', { hostname: 'h' }],
    ['a pid that is not a whole number', { pid: 1.5, hostname: 'h' }],
    ['no host name', { pid: 1 }],
    ['a host name that is not text', { pid: 1, hostname: 7 }],
    ['JSON null', null],
  ])('cannot say who holds a lock with %s', async (_, lock) => {
    const path = await statePath();
    await writeLock(path, lock);
    expect((await lockError(path)).message).toMatch(/exists but does not say who holds it/);
  });

  it('quotes the lock path for the shell in its hint', async () => {
    const dir = await testdir();
    const path = join(dir, "it's here", 'state.json');
    await writeLock(path, '');
    expect((await lockError(path)).hint).toBe(`If no postsync is running, remove it: rm '${join(dir, "it'\\''s here", 'state.json.lock')}'`);
  });

  it('cannot judge a lock from another host or an unreadable lock, and says so', async () => {
    const path = await statePath();
    await acquireLock(path).then((release) => release());
    await writeFile(lockPathFor(path), JSON.stringify({ pid: 1, hostname: 'build-box-7', startedAt: 'x', command: 'apply' }));
    expect((await lockError(path)).message).toMatch(/on host build-box-7 holds the state lock/);
    await writeFile(lockPathFor(path), '');
    const unreadable = await lockError(path);
    expect(unreadable.message).toMatch(/exists but does not say who holds it/);
    expect(unreadable.hint).toMatch(/^If no postsync is running, remove it: rm /);
  });
});

describe('acquireLock: is the holder alive?', () => {
  it("counts a process it may not signal (EPERM: another user's) as alive, and leaves its lock alone", async () => {
    const path = await statePath();
    const pid = deadPid();
    const lock = { pid, hostname: hostname(), startedAt: '2026-01-01T00:00:00.000Z', command: 'apply' };
    await writeLock(path, lock);
    const kill = process.kill.bind(process);
    vi.spyOn(process, 'kill').mockImplementation((target, signal) => {
      if (target === pid) throw Object.assign(new Error('kill EPERM'), { code: 'EPERM' });
      return kill(target, signal);
    });
    const error = await lockError(path);
    expect(error.message).toMatch(new RegExp(`^another postsync apply \\(pid ${pid}, .*\\) holds the state lock`));
    expect(error.hint).toMatch(/Wait for it to finish/);
    expect(JSON.parse(await readFile(lockPathFor(path), 'utf8'))).toEqual(lock);
  });
});
