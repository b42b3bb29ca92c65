import { randomBytes } from 'node:crypto';
import { link, mkdir, readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** Who holds the store lock (the content of its `held.<n>` file). */
export interface StoreLockHolder {
  pid: number;
  hostname: string;
  startedAt: string;
  /** Tells two holds apart (what `free.<n>` ends is always the hold of one call). */
  nonce: string;
}

/** Thrown when the lock stayed held by a live process for longer than the wait allows. */
export class StoreBusyError extends Error {
  constructor(
    readonly file: string,
    readonly holder: StoreLockHolder | null,
  ) {
    super(
      holder
        ? `the local API's store ${file} is held by process ${holder.pid} on ${holder.hostname} since ${holder.startedAt}`
        : `the local API's store lock ${file} exists but does not say who holds it`,
    );
  }
}

const HELD = /^held\.(\d+)$/;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The lock of a --data folder shared by several processes, held around each change (a few
 * milliseconds), so no process ever decides on a state another is changing.
 *
 * Holds are numbered: `lock/held.<n>` names the holder of the n-th hold and `lock/free.<n>` says it
 * ended. A process takes the next hold by creating `held.<n+1>` exclusively (a hard link of a
 * complete file: never seen half written), only once the n-th has ended or its holder is provably
 * dead (a process of this host that no longer runs: one killed with -9). Nothing is ever deleted to
 * take a lock, so two processes finding the same dead holder cannot both take over: one of them
 * creates `held.<n+1>` and the other gets EEXIST. Old numbers are removed by the holder; a process
 * that decided on a number so old that it was removed sees a higher one after creating it and
 * steps back.
 */
export class StoreLock {
  private readonly holds = new Set<string>();
  private made = false;

  constructor(
    readonly dir: string,
    private readonly options: { waitMs: number },
  ) {}

  /** Waits for the lock (polling, with backoff) and returns its release. */
  async acquire(): Promise<() => Promise<void>> {
    if (!this.made) {
      await mkdir(this.dir, { recursive: true });
      this.made = true;
    }
    const deadline = Date.now() + this.options.waitMs;
    const holder: StoreLockHolder = { pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString(), nonce: randomBytes(8).toString('hex') };
    let pause = 1;
    for (;;) {
      const numbers = await this.heldNumbers();
      const current = numbers.at(-1);
      const state = current === undefined ? 'free' : await this.stateOf(current);
      if (state !== 'held') {
        const next = (current ?? -1) + 1;
        if (await this.create(next, holder)) {
          if ((await this.heldNumbers()).some((n) => n > next)) {
            // A number from an old look at the folder: a later hold exists; step back.
            await unlink(this.file(`held.${next}`)).catch(() => undefined);
            continue;
          }
          this.holds.add(holder.nonce);
          await this.removeBefore(current ?? 0, numbers);
          return () => this.release(next, holder.nonce);
        }
        continue;
      }
      if (Date.now() >= deadline) throw new StoreBusyError(this.file(`held.${current as number}`), await this.holderOf(current as number));
      await sleep(pause);
      pause = Math.min(pause * 2, 10);
    }
  }

  private async release(n: number, nonce: string): Promise<void> {
    if (!this.holds.delete(nonce)) return;
    await writeFile(this.file(`free.${n}`), '', { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }

  private async heldNumbers(): Promise<number[]> {
    const names = await readdir(this.dir);
    return names
      .map((name) => HELD.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
  }

  private async stateOf(n: number): Promise<'free' | 'held'> {
    const freed = await stat(this.file(`free.${n}`)).then(
      () => true,
      () => false,
    );
    if (freed) return 'free';
    const holder = await this.holderOf(n);
    return holder !== null && isDead(holder) ? 'free' : 'held';
  }

  private async holderOf(n: number): Promise<StoreLockHolder | null> {
    try {
      const data = JSON.parse(await readFile(this.file(`held.${n}`), 'utf8')) as Partial<StoreLockHolder>;
      if (!Number.isInteger(data.pid) || typeof data.hostname !== 'string' || typeof data.nonce !== 'string') return null;
      return { pid: data.pid as number, hostname: data.hostname, startedAt: String(data.startedAt), nonce: data.nonce };
    } catch {
      return null;
    }
  }

  /** Creates `held.<n>` complete or not at all: false when it exists. */
  private async create(n: number, holder: StoreLockHolder): Promise<boolean> {
    const temp = this.file(`new.${holder.nonce}`);
    await writeFile(temp, `${JSON.stringify(holder)}\n`, { flag: 'wx' });
    try {
      await link(temp, this.file(`held.${n}`));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }

  /** Removes the files of holds before `n`: only the holder does, so none of them is needed any more. */
  private async removeBefore(n: number, numbers: readonly number[]): Promise<void> {
    const old = numbers.filter((k) => k < n);
    await Promise.all(old.flatMap((k) => [`held.${k}`, `free.${k}`].map((name) => unlink(this.file(name)).catch(() => undefined))));
  }

  private file(name: string): string {
    return join(this.dir, name);
  }
}

/**
 * A holder provably gone: a process of this host that no longer runs, or one that held it before
 * this process started under the same pid (a killed process whose pid this one was given).
 */
function isDead(holder: StoreLockHolder): boolean {
  if (holder.hostname !== hostname()) return false;
  if (holder.pid === process.pid) return Date.parse(holder.startedAt) < Date.now() - process.uptime() * 1000 - 1000;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'EPERM';
  }
}
