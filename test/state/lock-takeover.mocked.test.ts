import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type * as fs from 'node:fs/promises';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LockedError } from '../../src/errors.js';
import { acquireLock, lockPathFor, type ReleaseLock } from '../../src/state/lock.js';
import { testdir } from '../helpers/testdir.js';

/**
 * Races made to happen: a hook runs once, right after the next read or removal of a lock file
 * (`*.lock`), as if another run acted at that moment.
 */
const race = vi.hoisted(() => ({
  afterRead: undefined as (() => Promise<void>) | undefined,
  afterUnlink: undefined as (() => Promise<void>) | undefined,
  unlinkError: undefined as string | undefined,
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  const isLock = (path: unknown) => String(path).endsWith('.lock');
  const readFile = (async (...args: Parameters<typeof real.readFile>) => {
    const text = await real.readFile(...args);
    const hook = race.afterRead;
    if (hook && isLock(args[0])) {
      race.afterRead = undefined;
      await hook();
    }
    return text;
  }) as typeof real.readFile;
  const unlink: typeof real.unlink = async (path) => {
    if (race.unlinkError && isLock(path)) throw Object.assign(new Error(`${race.unlinkError}: injected`), { code: race.unlinkError });
    await real.unlink(path);
    const hook = race.afterUnlink;
    if (hook && isLock(path)) {
      race.afterUnlink = undefined;
      await hook();
    }
  };
  return { ...real, readFile, unlink, default: { ...real, readFile, unlink } };
});

afterEach(() => {
  race.afterRead = undefined;
  race.afterUnlink = undefined;
  race.unlinkError = undefined;
});

function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

const STARTED = '2026-01-01T00:00:00.000Z';

/** A state path whose lock was left by a dead process of this host. */
async function staleLock(lock = { pid: deadPid(), hostname: hostname(), startedAt: STARTED, command: 'apply' }) {
  const path = join(await testdir(), '.postsync/state.json');
  await mkdir(dirname(path), { recursive: true });
  await writeFile(lockPathFor(path), JSON.stringify(lock));
  return { path, lock };
}

async function refusal(path: string, command: string): Promise<LockedError> {
  const error = await acquireLock(path, { command }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(LockedError);
  return error as LockedError;
}

const lockOf = async (path: string) => JSON.parse(await readFile(lockPathFor(path), 'utf8')) as Record<string, unknown>;

describe('acquireLock: two runs take over the same stale lock', () => {
  it('the run that judged the lock stale refuses it when another run took it over first', async () => {
    const { path } = await staleLock();
    let winner: ReleaseLock | undefined;
    race.afterRead = async () => {
      winner = await acquireLock(path, { command: 'winner' });
    };
    const error = await refusal(path, 'loser');
    expect(error.message).toMatch(/^another postsync winner \(pid \d+, started .+\) holds the state lock/);
    expect(await lockOf(path)).toMatchObject({ command: 'winner' });
    expect(existsSync(`${lockPathFor(path)}.takeover`)).toBe(false);
    await winner!();
  });

  it.each([
    ['another dead pid', (lock: { pid: number; startedAt: string }) => ({ ...lock, pid: deadPid() })],
    ['another start time', (lock: { pid: number; startedAt: string }) => ({ ...lock, startedAt: '2026-01-02T00:00:00.000Z' })],
  ])('removes only the very lock it judged stale: a lock replaced meanwhile (%s) is left alone', async (_, replace) => {
    const { path, lock } = await staleLock();
    const replacement = replace(lock);
    race.afterRead = async () => writeFile(lockPathFor(path), JSON.stringify(replacement));
    const error = await refusal(path, 'late');
    expect(error.message).toMatch(/^stale state lock .+ is no longer running$/);
    expect(error.hint).toBe(`If no postsync is running, remove it: rm '${lockPathFor(path)}'`);
    expect(await lockOf(path)).toEqual(replacement);
    expect(existsSync(`${lockPathFor(path)}.takeover`)).toBe(false);
  });

  it('refuses, and leaves no guard behind, when the stale lock vanished meanwhile', async () => {
    const { path } = await staleLock();
    race.afterRead = async () => rm(lockPathFor(path));
    await refusal(path, 'late');
    expect(existsSync(`${lockPathFor(path)}.takeover`)).toBe(false);
  });

  it('refuses when a fresh run took the lock between the removal of the stale one and its own', async () => {
    const { path } = await staleLock();
    let fresh: ReleaseLock | undefined;
    race.afterUnlink = async () => {
      fresh = await acquireLock(path, { command: 'fresh' });
    };
    const error = await refusal(path, 'taker');
    expect(error.message).toMatch(/^another postsync fresh \(pid \d+/);
    expect(await lockOf(path)).toMatchObject({ command: 'fresh' });
    expect(existsSync(`${lockPathFor(path)}.takeover`)).toBe(false);
    await fresh!();
  });
});

describe('releasing the lock', () => {
  it('surfaces a failure to remove it, other than its being gone already', async () => {
    const path = join(await testdir(), 'state.json');
    const release = await acquireLock(path);
    race.unlinkError = 'EBUSY';
    await expect(release()).rejects.toThrow(/EBUSY/);
  });
});
