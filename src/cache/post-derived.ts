import type { CacheSection } from './cache-section.js';

/** Which post a value was worked out from. The same file, fingerprint and shape hash: the same post. */
export interface PostIdentity {
  key: string;
  /** Project-relative path of its file: the same bytes under another path may name other media files. */
  file: string;
  fingerprint: string;
  shapeHash: string;
}

interface DerivedEntry<T> {
  file: string;
  fingerprint: string;
  shapeHash: string;
  value: T;
}

/**
 * Values worked out from single posts (the calendar's cards), by post key. One is handed out only
 * for the very post it was made from: same file, same fingerprint (the file's bytes and its media
 * files) and same shape hash (what templates and slots made of them).
 */
export class PostDerived<T> {
  readonly #section: Pick<CacheSection<DerivedEntry<T>>, 'get' | 'set'>;

  constructor(section: Pick<CacheSection<DerivedEntry<T>>, 'get' | 'set'>) {
    this.#section = section;
  }

  get(post: PostIdentity): T | undefined {
    const entry = this.#section.get(post.key);
    return entry !== undefined && entry.fingerprint === post.fingerprint && entry.shapeHash === post.shapeHash && entry.file === post.file ? entry.value : undefined;
  }

  keep(post: PostIdentity, value: T): void {
    this.#section.set(post.key, { file: post.file, fingerprint: post.fingerprint, shapeHash: post.shapeHash, value });
  }
}
