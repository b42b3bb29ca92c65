import type { Stats } from 'node:fs';
import type { MediaFacts } from '../content/types.js';
import type { BytesRead, MemoReading, ReadingMemo } from '../content/reading-memo.js';
import type { CacheSection } from './cache-section.js';
import { sameStamp, settledStamp, statsForStamp, type FileStamp, type StampedFacts } from './file-stamps.js';

/** One post file's entry in `.postsync/cache/posts.json`: its reading, made from the bytes `stamp` vouches for. */
export interface PostEntry {
  stamp: FileStamp;
  reading: MemoReading;
}

/**
 * The reading memo of content reading, by project-relative file: the reading of each post file
 * read in full while its stamp (one `lstat`, as git's index) is unchanged; and what each media file
 * holds, by real path. Backed by cache sections, or by memory alone (`PostMemo.inMemory`, for a
 * session that keeps no cache but reads the same files again and again).
 */
export class PostMemo implements ReadingMemo {
  readonly #section: Pick<CacheSection<PostEntry>, 'get' | 'set' | 'delete'>;
  readonly #media: StampedFacts<MediaFacts> | null;

  constructor(section: Pick<CacheSection<PostEntry>, 'get' | 'set' | 'delete'>, media: StampedFacts<MediaFacts> | null) {
    this.#section = section;
    this.#media = media;
  }

  static inMemory(): PostMemo {
    return new PostMemo(new Map<string, PostEntry>(), null);
  }

  mediaFacts(realPath: string, stats: Stats, workOut: () => Promise<MediaFacts>): Promise<MediaFacts> {
    return this.#media === null ? workOut() : this.#media.recall(realPath, stats, workOut);
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
