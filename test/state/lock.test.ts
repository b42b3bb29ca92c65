import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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

describe('acquireLock', () => {
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

  it('refuses a stale lock while another run is taking it over', async () => {
    const path = await statePath();
    const lock = { pid: deadPid(), hostname: hostname(), startedAt: '2026-01-01T00:00:00.000Z', command: 'apply' };
    await acquireLock(path).then((release) => release());
    await writeFile(lockPathFor(path), JSON.stringify(lock));
    await writeFile(`${lockPathFor(path)}.takeover`, '');
    expect((await lockError(path)).message).toMatch(/another postsync is taking over the stale state lock/);
    expect(JSON.parse(await readFile(lockPathFor(path), 'utf8'))).toEqual(lock);
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
