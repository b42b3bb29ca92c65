import { watch, type FSWatcher } from 'chokidar';

export type FsEventKind = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';

const FS_EVENT_KINDS: ReadonlySet<string> = new Set<FsEventKind>(['add', 'change', 'unlink', 'addDir', 'unlinkDir']);

/** One event as chokidar reported it; `path` is absolute. */
export interface FsEvent {
  kind: FsEventKind;
  path: string;
}

export interface FileWatcherOptions {
  root: string;
  /** Paths for which this is false are neither watched nor descended into. */
  isRelevant(path: string): boolean;
  /** Quiet time that ends a burst: an editor's save is several events (temp file, rename, chmod). */
  debounceMs: number;
  /**
   * Quiet time when the burst removed something: a rename or a re-created file reports its
   * second half a little later (the folder is read again first), and should read as one change.
   */
  unlinkQuietMs: number;
  /** One call per burst, events in the order they came. */
  onBatch(events: FsEvent[]): void;
  onError(error: Error): void;
}

/**
 * chokidar (v4+ has no globs) on the project root, pruned by `isRelevant`, with the events of a
 * burst delivered together. Resolves once the initial scan is done.
 */
export class FileWatcher {
  readonly #watcher: FSWatcher;
  readonly #options: FileWatcherOptions;
  #pending: FsEvent[] = [];
  #timer: NodeJS.Timeout | undefined;

  private constructor(watcher: FSWatcher, options: FileWatcherOptions) {
    this.#watcher = watcher;
    this.#options = options;
  }

  static async start(options: FileWatcherOptions): Promise<FileWatcher> {
    const watcher = watch(options.root, {
      ignored: (path: string) => !options.isRelevant(path),
      ignoreInitial: true,
      // Like discovering post files: a symlinked folder is not followed.
      followSymlinks: false,
      // chokidar's own atomic-save handling holds every unlink back 100 ms, which splits a rename
      // into two bursts; the debounce below already folds a save's unlink + add into one change.
      atomic: false,
    });
    const fileWatcher = new FileWatcher(watcher, options);
    watcher.on('all', (kind, path) => {
      if (FS_EVENT_KINDS.has(kind)) fileWatcher.#push({ kind: kind as FsEventKind, path });
    });
    watcher.on('error', (error) => options.onError(error instanceof Error ? error : new Error(String(error))));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    return fileWatcher;
  }

  /** Starts watching paths that became relevant (a post now references media elsewhere). */
  add(paths: readonly string[]): void {
    if (paths.length > 0) this.#watcher.add([...paths]);
  }

  async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#pending = [];
    await this.#watcher.close();
  }

  #push(event: FsEvent): void {
    this.#pending.push(event);
    clearTimeout(this.#timer);
    const removed = this.#pending.some((pending) => pending.kind === 'unlink' || pending.kind === 'unlinkDir');
    this.#timer = setTimeout(() => {
      const batch = this.#pending;
      this.#pending = [];
      this.#options.onBatch(batch);
    }, removed ? this.#options.unlinkQuietMs : this.#options.debounceMs);
  }
}
