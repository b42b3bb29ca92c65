import type { FsEvent } from './file-watcher.js';

/** What a watch session has to do next. */
export interface Work {
  events: FsEvent[];
  refresh: 'interval' | 'manual' | null;
  /** Drafts were applied: read the state and the remote again. */
  afterApply: boolean;
}

const noWork = (): Work => ({ events: [], refresh: null, afterApply: false });
const isNoWork = (work: Work) => work.events.length === 0 && work.refresh === null && !work.afterApply;

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/**
 * Runs work one batch at a time: whatever arrives while a batch runs (saves, a refresh) is
 * merged into the next batch, so a burst of saves during a slow plan costs one more plan, not
 * one per save. Nothing runs before `open()`; after `close()` nothing new starts.
 */
export class WorkQueue {
  readonly #run: (work: Work) => Promise<void>;
  readonly #onError: (error: Error) => void;
  #pending: Work = noWork();
  #chain: Promise<void> = Promise.resolve();
  #draining = false;
  #open = false;
  #closed = false;

  constructor(options: { run: (work: Work) => Promise<void>; onError: (error: Error) => void }) {
    this.#run = options.run;
    this.#onError = options.onError;
  }

  open(): void {
    this.#open = true;
    this.#kick();
  }

  push(work: Partial<Work>): void {
    const pending = this.#pending;
    pending.events.push(...(work.events ?? []));
    if (work.refresh === 'manual' || (work.refresh === 'interval' && pending.refresh === null)) pending.refresh = work.refresh;
    pending.afterApply ||= work.afterApply === true;
    this.#kick();
  }

  /** Runs `task` once the work started so far is done, before any later batch. */
  then(task: () => Promise<void>): void {
    this.#chain = this.#chain.then(task).catch((error: unknown) => this.#onError(asError(error)));
  }

  /** Lets the batch in progress finish; nothing else starts. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#chain;
  }

  #kick(): void {
    if (!this.#open || this.#closed || this.#draining || isNoWork(this.#pending)) return;
    this.#draining = true;
    this.then(async () => {
      while (!this.#closed && !isNoWork(this.#pending)) {
        const work = this.#pending;
        this.#pending = noWork();
        try {
          await this.#run(work);
        } catch (error) {
          this.#onError(asError(error));
        }
      }
    });
    this.#chain = this.#chain.finally(() => {
      this.#draining = false;
      // Work pushed between the last check and here would otherwise wait for the next push.
      this.#kick();
    });
  }
}
