import { hostname } from 'node:os';
import { mkdir, readFile, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LockedError } from '../errors.js';
import { guardWrite } from '../write-guard/guard-write.js';
import { timeText } from '../zoned-time/index.js';
import { createFileExclusive } from './atomic.js';

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

export interface AcquireLockOptions {
  command?: string;
  /** Told when a lock left by a dead process on this host was taken over (so the CLI can say so). */
  onStaleLock?: (previous: LockOwner) => void;
  /** The project's time zone: a held lock's error names when its holder started on this clock (default UTC). */
  timezone?: string;
  /** The folder the lock must stay in, never written through a link (default: the state's folder). */
  root?: string;
}

/**
 * Takes the state lock by creating `<state>.lock` exclusively (O_EXCL). A lock held by a live
 * process, by another host, or that does not say who holds it is a LockedError explaining who
 * and what to do. A lock left by a process of this host that is provably dead (a killed apply)
 * is taken over, and reported through `onStaleLock`: the state it guarded is consistent, since
 * every change is written atomically. The takeover itself is guarded by a second exclusive file,
 * so two runs that find the same stale lock never both take it.
 * Returns the release function (idempotent).
 */
export async function acquireLock(statePath: string, options: AcquireLockOptions = {}): Promise<ReleaseLock> {
  const lockPath = lockPathFor(statePath);
  const root = options.root ?? dirname(statePath);
  const shown = { timezone: options.timezone ?? 'UTC' };
  await guardWrite(lockPath, { root });
  await mkdir(dirname(lockPath), { recursive: true });
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    command: options.command ?? 'apply',
  };
  const text = `${JSON.stringify(owner, null, 2)}\n`;
  if (!(await createFileExclusive(lockPath, text, { root }))) {
    const stale = await staleOwner(lockPath);
    if (!stale) throw await describeHeldLock(lockPath, shown);
    await takeOver(lockPath, stale, { text, root, ...shown });
    options.onStaleLock?.(stale);
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


/** The owner of the lock when it is a dead process of this host, else null. */
async function staleOwner(lockPath: string): Promise<LockOwner | null> {
  const owner = await readOwner(lockPath);
  return owner && owner.hostname === hostname() && !isAlive(owner.pid) ? owner : null;
}

async function takeOver(lockPath: string, stale: LockOwner, lock: { text: string; root: string; timezone: string }): Promise<void> {
  const { text, root } = lock;
  const guardPath = `${lockPath}.takeover`;
  if (!(await createFileExclusive(guardPath, text, { root }))) {
    throw new LockedError(`another postsync is taking over the stale state lock ${lockPath}`, {
      hint: `Try again in a moment. If none is running, remove ${guardPath}.`,
    });
  }
  try {
    const still = await readOwner(lockPath);
    if (!still || still.pid !== stale.pid || still.startedAt !== stale.startedAt) throw await describeHeldLock(lockPath, lock);
    await unlink(lockPath);
    if (!(await createFileExclusive(lockPath, text, { root }))) throw await describeHeldLock(lockPath, lock);
  } finally {
    await unlink(guardPath).catch(() => undefined);
  }
}

async function describeHeldLock(lockPath: string, shown: { timezone: string }): Promise<LockedError> {
  const removeHint = `If no postsync is running, remove it: rm '${lockPath.replaceAll("'", "'\\''")}'`;
  const owner = await readOwner(lockPath);
  if (!owner) {
    return new LockedError(`the state lock ${lockPath} exists but does not say who holds it`, { hint: removeHint });
  }
  const who = `postsync ${owner.command} (pid ${owner.pid}, started ${timeText(owner.startedAt, shown.timezone)})`;
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
