import type { CacheSection } from './cache-section.js';

/** Which post a value was worked out from. Equal fingerprints and shape hashes: equal posts. */
export interface PostIdentity {
  key: string;
  fingerprint: string;
  shapeHash: string;
}

interface DerivedEntry<T> {
  fingerprint: string;
  shapeHash: string;
  value: T;
}

/**
 * Values worked out from single posts (the calendar's cards), by post key. One is handed out only
 * for the very post it was made from: same fingerprint (the file's bytes and its media files) and
 * same shape hash (what templates and slots made of them).
 */
export class PostDerived<T> {
  readonly #section: Pick<CacheSection<DerivedEntry<T>>, 'get' | 'set'>;

  constructor(section: Pick<CacheSection<DerivedEntry<T>>, 'get' | 'set'>) {
    this.#section = section;
  }

  get(post: PostIdentity): T | undefined {
    const entry = this.#section.get(post.key);
    return entry !== undefined && entry.fingerprint === post.fingerprint && entry.shapeHash === post.shapeHash ? entry.value : undefined;
  }

  keep(post: PostIdentity, value: T): void {
    this.#section.set(post.key, { fingerprint: post.fingerprint, shapeHash: post.shapeHash, value });
  }
}
