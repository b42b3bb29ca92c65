import type { BytesRead, MemoReading, ReadingMemo } from '../content/reading-memo.js';
import type { CacheSection } from './cache-section.js';
import { sameStamp, settledStamp, statsForStamp, type FileStamp } from './file-stamps.js';

/** One post file's entry in `.postsync/cache/posts.json`: its reading, made from the bytes `stamp` vouches for. */
export interface PostEntry {
  stamp: FileStamp;
  reading: MemoReading;
}

/**
 * The reading memo of content reading, by project-relative file: the reading of each post file
 * read in full while its stamp (one `lstat`, as git's index) is unchanged (media files' facts are
 * `RunCache.mediaFacts`, for `MediaMemo`). Backed by a cache section, or by memory alone (`PostMemo.inMemory`, for a
 * session that keeps no cache but reads the same files again and again).
 */
export class PostMemo implements ReadingMemo {
  readonly #section: Pick<CacheSection<PostEntry>, 'get' | 'set' | 'delete'>;

  constructor(section: Pick<CacheSection<PostEntry>, 'get' | 'set' | 'delete'>) {
    this.#section = section;
  }

  static inMemory(): PostMemo {
    return new PostMemo(new Map<string, PostEntry>());
  }

  reading(file: string, path: string): MemoReading | undefined {
    const entry = this.#section.get(file);
    if (entry === undefined) return undefined;
    const stats = statsForStamp(path);
    return stats !== undefined && sameStamp(entry.stamp, stats) ? entry.reading : undefined;
  }

  keep(file: string, read: BytesRead, reading: MemoReading): void {
    // A file changed within the time stamps can tell apart is not vouched for by its stamp: it is read again next time.
    const stamp = settledStamp(read.stats, read.readAt);
    if (stamp === undefined) this.#section.delete(file);
    else this.#section.set(file, { stamp, reading });
  }
}
