/**
 * One lock per file, within this process: a task on a path starts once every task started
 * earlier on the same path has settled, whatever it came to. Tasks on other paths run alongside.
 * Keyed by the file's real path, so two names of one file share a lock.
 */
export class PathLocks {
  /** The last task queued on each path, settled either way; gone once it is done and none follows. */
  readonly #tails = new Map<string, Promise<void>>();

  async run<T>(realPath: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(realPath) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(realPath, tail);
    try {
      return await result;
    } finally {
      if (this.#tails.get(realPath) === tail) this.#tails.delete(realPath);
    }
  }
}
