import type { CacheSection, SectionCodec } from './cache-section.js';

/** Which post a value was worked out from. The same file, fingerprint and shape hash: the same post. */
export interface PostIdentity {
  key: string;
  /** Project-relative path of its file: the same bytes under another path may name other media files. */
  file: string;
  fingerprint: string;
  shapeHash: string;
}

/** A value that names the post it was made from: all of its identity but the fingerprint, which its entry adds. */
export type PostNamed = Pick<PostIdentity, 'key' | 'file' | 'shapeHash'>;

/** One kept value and the fingerprint of the post it was made from. */
export interface DerivedEntry<T extends PostNamed> {
  fingerprint: string;
  value: T;
}

/**
 * Values worked out from single posts (the calendar's cards), by post key. One is handed out only
 * for the very post it was made from: same file, same fingerprint (the file's bytes and its media
 * files) and same shape hash (what templates and slots made of them).
 */
export class PostDerived<T extends PostNamed> {
  readonly #section: Pick<CacheSection<DerivedEntry<T>>, 'get' | 'set'>;

  constructor(section: Pick<CacheSection<DerivedEntry<T>>, 'get' | 'set'>) {
    this.#section = section;
  }

  get(post: PostIdentity): T | undefined {
    const entry = this.#section.get(post.key);
    return entry !== undefined && entry.fingerprint === post.fingerprint && entry.value.shapeHash === post.shapeHash && entry.value.file === post.file ? entry.value : undefined;
  }

  keep(post: PostIdentity, value: T): void {
    if (value.key !== post.key || value.file !== post.file || value.shapeHash !== post.shapeHash) throw new Error(`a value kept for ${post.key} names another post`);
    this.#section.set(post.key, { fingerprint: post.fingerprint, value });
  }
}

/**
 * The entries written as a list, each under the key its value names: the file holds each post's
 * key, file and shape hash once.
 */
export function derivedCodec<T extends PostNamed>(): SectionCodec<DerivedEntry<T>> {
  return {
    encode: (entries) => [...entries.values()],
    decode: (raw) => (Array.isArray(raw) && raw.every(isEntry) ? new Map(raw.map((entry) => [entry.value.key, entry as DerivedEntry<T>])) : undefined),
  };
}

function isEntry(entry: unknown): entry is DerivedEntry<PostNamed> {
  const { fingerprint, value } = (entry ?? {}) as Partial<DerivedEntry<PostNamed>>;
  return typeof fingerprint === 'string' && typeof value?.key === 'string';
}
