import { hostname } from 'node:os';
import { mkdir, open, readFile, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LockedError } from '../errors.js';

/** Contents of `<state>.lock`: who holds it, so a second run can explain itself. */
export interface LockOwner {
  pid: number;
  hostname: string;
  startedAt: string;
  command: string;
}

export type ReleaseLock = () => Promise<void>;

export function lockPathFor(statePath: string): string {
  return `${statePath}.lock`;
}

/**
 * Takes the state lock by creating `<state>.lock` exclusively (O_EXCL). A lock held by a live
 * process, by another host, or left behind by a dead process is a LockedError; a stale lock is
 * explained with the exact command to remove it, never taken over silently, because a wrong
 * guess there means two writers on one state file.
 * Returns the release function (idempotent).
 */
export async function acquireLock(
  statePath: string,
  options: { command?: string } = {},
): Promise<ReleaseLock> {
  const lockPath = lockPathFor(statePath);
  await mkdir(dirname(lockPath), { recursive: true });
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    command: options.command ?? 'apply',
  };
  let handle;
  try {
    handle = await open(lockPath, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw await describeHeldLock(lockPath);
  }
  try {
    await handle.writeFile(`${JSON.stringify(owner, null, 2)}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await unlink(lockPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  };
}

async function describeHeldLock(lockPath: string): Promise<LockedError> {
  const removeHint = `If no postsync is running, remove it: rm '${lockPath.replaceAll("'", "'\\''")}'`;
  const owner = await readOwner(lockPath);
  if (!owner) {
    return new LockedError(`the state lock ${lockPath} exists but does not say who holds it`, { hint: removeHint });
  }
  const who = `postsync ${owner.command} (pid ${owner.pid}, started ${owner.startedAt})`;
  if (owner.hostname !== hostname()) {
    return new LockedError(`another ${who} on host ${owner.hostname} holds the state lock ${lockPath}`, {
      hint: removeHint,
    });
  }
  if (isAlive(owner.pid)) {
    return new LockedError(`another ${who} holds the state lock ${lockPath}`, {
      hint: 'Wait for it to finish, or stop that process first.',
    });
  }
  return new LockedError(`stale state lock ${lockPath}: ${who} is no longer running`, { hint: removeHint });
}

async function readOwner(lockPath: string): Promise<LockOwner | null> {
  try {
    const data = JSON.parse(await readFile(lockPath, 'utf8')) as Partial<LockOwner> | null;
    if (!data || !Number.isInteger(data.pid) || typeof data.hostname !== 'string') return null;
    return {
      pid: data.pid as number,
      hostname: data.hostname,
      startedAt: String(data.startedAt ?? 'at an unknown time'),
      command: String(data.command ?? 'run'),
    };
  } catch {
    return null;
  }
}

/** Signal 0 checks existence only; EPERM means it exists but belongs to another user. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
