import { constants, openSync, readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * File-system answers shared by the files of one read of the content folder: the real path of the
 * project root and of each folder, and the stat and real path of each media candidate. Thousands
 * of posts sharing a root, a few folders and a few media files then cost a handful of calls instead
 * of several per post. Make one per read (a read sees the files as they were when it started);
 * never keep one across reads, or changes on disk would go unseen.
 */
export class FileLookups {
  readonly #realpaths = new Map<string, { real: string } | { error: unknown }>();
  readonly #stats = new Map<string, Promise<Stats | undefined>>();
  readonly #answers = new Map<string, Promise<unknown>>();
  readonly #syncAnswers = new Map<string, unknown>();
  readonly #names = new Map<string, readonly string[]>();

  /** The answer to a question about the files (by `key`), worked out by `find` once per read. */
  once<T>(key: string, find: () => Promise<T>): Promise<T> {
    let answer = this.#answers.get(key) as Promise<T> | undefined;
    if (answer === undefined) {
      answer = find();
      this.#answers.set(key, answer);
    }
    return answer;
  }

  /** `once` for a question answered synchronously (snippet files, which templates read while rendering). */
  onceSync<T>(key: string, find: () => T): T {
    if (!this.#syncAnswers.has(key)) this.#syncAnswers.set(key, find());
    return this.#syncAnswers.get(key) as T;
  }

  /**
   * The real path, or the error finding it threw. Synchronous, as the other lookups: a few calls
   * per read (the root, each folder, each media file), while a promise-based one waits for a thread
   * of libuv's pool that the file reads of a large read keep busy, and holds up every file of its folder.
   */
  realpath(path: string): string {
    let answer = this.#realpaths.get(path);
    if (answer === undefined) {
      try {
        answer = { real: realpathSync.native(path) };
      } catch (error) {
        answer = { error };
      }
      this.#realpaths.set(path, answer);
    }
    if ('error' in answer) throw answer.error;
    return answer.real;
  }

  /**
   * `stat`, or undefined when the path cannot be stat'ed (missing, no permission). Synchronous:
   * most candidates of a media path are missing, and a rejected promise costs an error object
   * with a stack each time, where `throwIfNoEntry: false` costs nothing.
   */
  stat(path: string): Promise<Stats | undefined> {
    let stats = this.#stats.get(path);
    if (stats === undefined) {
      stats = Promise.resolve(statOrUndefined(path));
      this.#stats.set(path, stats);
    }
    return stats;
  }

  /** The names in the folder `dir` (none when it cannot be read), read once per read of the content. */
  names(dir: string): readonly string[] {
    let names = this.#names.get(dir);
    if (names === undefined) {
      try {
        names = readdirSync(dir);
      } catch {
        names = [];
      }
      this.#names.set(dir, names);
    }
    return names;
  }

  /**
   * Opens a file for reading (a file descriptor) once its
   * real path passes `allowed`, without a `realpath` per file: the real path is first taken as the
   * folder's (memoized) real path plus the name, and the open uses O_NOFOLLOW, so it fails (ELOOP)
   * if the file itself is a symlink; only then is the file's own `realpath` taken and checked.
   * Returns null, opening nothing, when the real path is not allowed. O_NONBLOCK keeps a FIFO
   * from blocking the open. The caller closes the descriptor.
   */
  openChecked(path: string, allowed: (realPath: string) => boolean): { fd: number; realPath: string } | null {
    const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;
    const flags = O_RDONLY | (O_NONBLOCK ?? 0);
    if (O_NOFOLLOW !== undefined) {
      const realPath = join(this.realpath(dirname(path)), basename(path));
      if (allowed(realPath)) {
        try {
          return { fd: openSync(path, flags | O_NOFOLLOW), realPath };
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code !== 'ELOOP' && code !== 'EMLINK') throw error;
        }
      }
    }
    const realPath = realpathSync.native(path);
    return allowed(realPath) ? { fd: openSync(path, flags), realPath } : null;
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
