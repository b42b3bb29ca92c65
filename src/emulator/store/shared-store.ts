import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { StateError } from '../../errors.js';
import { ErrorCodes } from '../../api/error-codes.js';
import { ApiError } from '../protocol/envelope.js';
import { Journal } from './journal.js';
import { StoreBusyError, StoreLock } from './store-lock.js';
import type { EmulatorStore, JournalRecord } from './store.js';

/** How long a request waits for another process's change before it is answered 503. */
const LOCK_WAIT_MS = 15_000;

/**
 * One store for every process that serves a --data folder (the embedded local API of a `watch`
 * beside an `apply`, or `postsync serve --data`).
 *
 * Each process keeps the state in memory, and the journal is the truth they share. Before it
 * answers, a request brings the memory up to date with the journal (`refresh`: a `stat` when
 * nothing changed). A request that changes something runs as a transaction: it takes the store
 * lock, reads what other processes added, decides, appends its changes as one line, fsyncs, and
 * only then releases the lock and answers. So no process decides on a state another is changing,
 * every answered change is on disk, and the journal's order is the order changes were made in.
 * Transactions of one process run one at a time; reads run beside them.
 */
export class SharedStore {
  private readonly lock: StoreLock;
  private pending: JournalRecord[] = [];
  /** True while this process holds the lock and has read the journal: memory is then the latest state. */
  private holding = false;
  /** The end of the chain of transactions of this process. */
  private transactions: Promise<unknown> = Promise.resolve();
  /** The end of the chain of reads of the journal, and the read queued behind it, if any (later callers share it). */
  private reads: Promise<void> = Promise.resolve();
  private queuedRead: Promise<void> | null = null;

  private constructor(
    private readonly store: EmulatorStore,
    private readonly journal: Journal,
    dir: string,
  ) {
    this.lock = new StoreLock(join(dir, 'lock'), { waitMs: LOCK_WAIT_MS });
  }

  /**
   * Opens the folder's journal, reading it, or seeding it (`seed`) and writing the first journal
   * when there is none yet; compacts it when most of its lines are superseded.
   */
  static async open(store: EmulatorStore, dir: string, seed: () => void): Promise<SharedStore> {
    try {
      return await SharedStore.openWritable(store, dir, seed);
    } catch (error) {
      throw (await unsharableError(dir, error)) ?? error;
    }
  }

  private static async openWritable(store: EmulatorStore, dir: string, seed: () => void): Promise<SharedStore> {
    const shared = new SharedStore(store, await Journal.open(dir), dir);
    // The lock is taken after reading what is there: an existing journal is already read.
    await shared.exclusive(async () => {
      if (await shared.journal.exists()) {
        if (shared.journal.lines >= 2 * store.recordCount()) await shared.journal.compact(store.snapshot());
      } else {
        seed();
        await shared.journal.compact(store.snapshot());
      }
    });
    store.setSink((record) => shared.record(record));
    return shared;
  }

  /** Brings this process's memory up to date with the journal (what other processes wrote). */
  refresh(): Promise<void> {
    if (this.holding) return Promise.resolve();
    this.queuedRead ??= this.readAfterOthers();
    return this.queuedRead;
  }

  /** Runs `work`, which may change the store, as one transaction (see the class). */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      try {
        return await work();
      } finally {
        await this.commit();
      }
    });
  }

  /** Writes the changes made so far in the running transaction and waits until they are on disk. */
  async commit(): Promise<void> {
    if (this.pending.length === 0) return;
    const records = this.pending;
    this.pending = [];
    try {
      await this.journal.append(records);
    } catch (error) {
      // Memory now holds changes the journal lacks: the next look reads the whole journal again.
      this.journal.forget();
      throw error;
    }
  }

  /** Forgets everything and writes `fill`'s state as the whole journal (a reset). */
  replaceAll(fill: () => void): Promise<void> {
    return this.exclusive(async () => {
      this.pending = [];
      this.store.setSink(null);
      try {
        this.store.clear();
        fill();
      } finally {
        this.store.setSink((record) => this.record(record));
      }
      await this.journal.compact(this.store.snapshot());
    });
  }

  async close(): Promise<void> {
    await this.transactions.catch(() => undefined);
    await this.journal.close();
  }

  private record(record: JournalRecord): void {
    if (!this.holding) throw new Error(`a change to the shared store outside a transaction (${record.t})`);
    this.pending.push(record);
  }

  /** Under the lock, once the journal is read; one at a time in this process. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.transactions.then(async () => {
      let release: () => Promise<void>;
      try {
        release = await this.lock.acquire();
      } catch (error) {
        if (error instanceof StoreBusyError) throw new ApiError(503, ErrorCodes.serviceUnavailable, `${error.message}; retry later`, { 'Retry-After': '1' });
        throw error;
      }
      try {
        await this.refresh();
        this.holding = true;
        return await work();
      } finally {
        this.holding = false;
        this.pending = [];
        await release();
      }
    });
    this.transactions = run.catch(() => undefined);
    return run;
  }

  private readAfterOthers(): Promise<void> {
    const read = this.reads.then(() => {
      this.queuedRead = null;
      return this.holding ? undefined : this.readJournal();
    });
    this.reads = read.catch(() => undefined);
    return read;
  }

  /** Applies what the journal has that memory has not; all at once, so no request sees half of it. */
  private async readJournal(): Promise<void> {
    const reading = await this.journal.readNew();
    if (!reading) return;
    if (reading.reload) this.store.clear();
    this.store.replay(reading.records);
  }
}

/**
 * Why this process cannot share the folder, when an error says it may not write there: every
 * process of one local API writes its journal and its lock, so one that cannot is refused at start.
 */
async function unsharableError(dir: string, error: unknown): Promise<StateError | undefined> {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') return undefined;
  let why = 'it is on a read-only file system';
  if (code !== 'EROFS') {
    const owner = await ownerOf(dir);
    const user = process.getuid?.();
    why = `this user${user === undefined ? '' : ` (uid ${user})`} may not write in it${owner === undefined ? '' : ` (it belongs to uid ${owner})`}`;
  }
  return new StateError(`the local API's data folder ${dir} cannot be shared with this process: ${why}`, {
    hint: 'Every process on one local API reads and writes its folder: run postsync as the user who owns it, or use an API of your own (POSTSYNC_API_URL, e.g. a `postsync serve` run by that user).',
    cause: error,
  });
}

/** The owner of `dir`, or of its nearest existing parent. */
async function ownerOf(dir: string): Promise<number | undefined> {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const found = await stat(at).catch(() => undefined);
    if (found) return found.uid;
    if (dirname(at) === at) return undefined;
  }
}
