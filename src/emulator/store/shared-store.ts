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
/** How long one hold of the lock may serve this process's queued transactions before it lets other processes in. */
const HOLD_BUDGET_MS = 50;
/** The pause after a hold that used its budget, so a process polling for the lock gets it. */
const YIELD_MS = 15;

interface Queued {
  work: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One store for every process that serves a --data folder (the embedded local API of a `watch`
 * beside an `apply`, or `postsync serve --data`).
 *
 * Each process keeps the state in memory, and the journal is the truth they share. Before it
 * answers, a request brings the memory up to date with the journal (`refresh`: a `stat` when
 * nothing changed). A request that changes something runs as a transaction: under the store
 * lock, after reading what other processes added, it decides and appends its changes as one line.
 * Transactions of one process run one after the other; those queued while one runs share its hold
 * of the lock (for up to HOLD_BUDGET_MS) and one fsync, after which the lock is released and they
 * are answered. So no process decides on a state another is changing, every answered change is on
 * disk, and the journal's order is the order changes were made in. Reads run beside transactions.
 */
export class SharedStore {
  private readonly lock: StoreLock;
  private pending: JournalRecord[] = [];
  /** What runs once this hold's changes are on disk, before they are answered (`whenDurable`). */
  private durable: (() => void)[] = [];
  /** True while this process holds the lock and has read the journal: memory is then the latest state. */
  private holding = false;
  /** Transactions waiting for this process's next hold of the lock, and the running holds, if any. */
  private readonly queue: Queued[] = [];
  private holds: Promise<void> | null = null;
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

  /** Runs `work`, which may change the store, as one transaction (see the class); resolves once its changes are on disk. */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.exclusive(work);
  }

  /** Writes the changes made so far in the running transaction as one journal line (on disk when its hold ends). */
  async commit(): Promise<void> {
    if (this.pending.length === 0) return;
    const records = this.pending;
    this.pending = [];
    await this.journal.append(records);
  }

  /** Runs `done` once this hold's changes are on disk (at once outside a transaction); dropped when they are not. */
  whenDurable(done: () => void): void {
    if (this.holding) this.durable.push(done);
    else done();
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
    await this.holds;
    await this.journal.close();
  }

  private record(record: JournalRecord): void {
    if (!this.holding) throw new Error(`a change to the shared store outside a transaction (${record.t})`);
    this.pending.push(record);
  }

  /** Runs `work` under the lock, once the journal is read; one at a time in this process. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.holds ??= this.runHolds().finally(() => {
        this.holds = null;
      });
    });
  }

  private async runHolds(): Promise<void> {
    while (this.queue.length > 0) {
      try {
        if (await this.hold()) await sleep(YIELD_MS);
      } catch (error) {
        for (const queued of this.queue.splice(0)) queued.reject(error);
      }
    }
  }

  /** One hold of the lock: runs queued transactions, fsyncs once, answers them, releases. True when it ran out of budget. */
  private async hold(): Promise<boolean> {
    let release: () => Promise<void>;
    try {
      release = await this.lock.acquire();
    } catch (error) {
      throw error instanceof StoreBusyError ? new ApiError(503, ErrorCodes.serviceUnavailable, `${error.message}; retry later`, { 'Retry-After': '1' }) : error;
    }
    try {
      await this.refresh();
    } catch (error) {
      // The journal cannot be read (corrupt): nothing queued can run.
      await release();
      throw error;
    }
    const ran: { queued: Queued; outcome: { value: unknown } | { error: unknown } }[] = [];
    const started = Date.now();
    let exhausted = false;
    try {
      this.holding = true;
      while (this.queue.length > 0 && Date.now() - started < HOLD_BUDGET_MS) {
        const queued = this.queue.shift() as Queued;
        const entry: (typeof ran)[number] = { queued, outcome: { value: undefined } };
        ran.push(entry);
        try {
          entry.outcome = { value: await queued.work() };
        } catch (error) {
          entry.outcome = { error };
        }
        // Also what a failed one changed before failing (e.g. posts published on the way).
        await this.commit();
      }
      exhausted = this.queue.length > 0;
      await this.journal.sync();
      for (const done of this.durable) done();
    } catch (error) {
      // Not on disk: none of them succeeded, and memory may hold changes the journal lacks, so
      // the next look reads the whole journal again.
      this.journal.forget();
      for (const entry of ran) entry.outcome = { error };
    } finally {
      this.holding = false;
      this.pending = [];
      this.durable = [];
    }
    for (const { queued, outcome } of ran) {
      if ('error' in outcome) queued.reject(outcome.error);
      else queued.resolve(outcome.value);
    }
    await release();
    return exhausted;
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
