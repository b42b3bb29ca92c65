import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Bumped when the layout of a section file changes (2: entries as `[key, value]` pairs). */
const SECTION_FORMAT = 2;

/** What a section file holds besides its entries: entries are trusted only when both match. */
export interface SectionIdentity {
  /** The postsync build that wrote the entries (dist/build-id.json). */
  build: string;
  /** What the entries were worked out from besides their own keys (e.g. timezone, aliases). */
  context: string;
}

interface SectionFile<T> extends SectionIdentity {
  format: number;
  /**
   * Pairs, not an object keyed by entry: JSON.parse makes an array of pairs and a Map from it in
   * about two thirds of the time it takes with an object of 10,000 keys (each key interned).
   */
  entries: [key: string, value: T][];
}

/**
 * One file of `.postsync/cache/`: entries by key, loaded whole when opened and written whole (to a
 * temporary name, then renamed) by `save`. A cache is never trusted over the source: a missing,
 * unreadable, corrupt or foreign (other build, other context) file is an empty section.
 * `save` keeps the entries this run read or set and drops the others, so the file follows the
 * project instead of growing with every edit; a section nobody opened is left as it is.
 */
export class CacheSection<T> {
  readonly #path: string;
  readonly #identity: SectionIdentity;
  readonly #loaded: Map<string, T>;
  readonly #used = new Map<string, T>();
  #changed = false;

  private constructor(path: string, identity: SectionIdentity, loaded: Map<string, T>) {
    this.#path = path;
    this.#identity = identity;
    this.#loaded = loaded;
  }

  /** Reads the section file synchronously (it is read once, before any work starts). */
  static open<T>(path: string, identity: SectionIdentity): CacheSection<T> {
    return new CacheSection<T>(path, identity, readEntries<T>(path, identity));
  }

  get(key: string): T | undefined {
    const used = this.#used.get(key);
    if (used !== undefined) return used;
    const value = this.#loaded.get(key);
    if (value !== undefined) this.#used.set(key, value);
    return value;
  }

  set(key: string, value: T): void {
    this.#used.set(key, value);
    this.#changed = true;
  }

  /** Drops an entry the caller found stale. */
  delete(key: string): void {
    if (this.#used.delete(key) || this.#loaded.has(key)) this.#changed = true;
  }

  /** Whether `save` would write: an entry was set, or one loaded was not used this run. */
  get dirty(): boolean {
    return this.#changed || this.#used.size !== this.#loaded.size;
  }

  /** Writes the used entries when anything changed. Never throws: a cache that cannot be written is only slower next time. */
  async save(): Promise<boolean> {
    if (!this.dirty) return false;
    const file: SectionFile<T> = { format: SECTION_FORMAT, ...this.#identity, entries: [...this.#used] };
    const temp = join(dirname(this.#path), `.${basename(this.#path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await mkdir(dirname(this.#path), { recursive: true });
      await writeFile(temp, JSON.stringify(file));
      await rename(temp, this.#path);
      return true;
    } catch {
      await rm(temp, { force: true }).catch(() => undefined);
      return false;
    }
  }
}

function readEntries<T>(path: string, identity: SectionIdentity): Map<string, T> {
  let file: Partial<SectionFile<T>>;
  try {
    file = JSON.parse(readFileSync(path, 'utf8')) as Partial<SectionFile<T>>;
  } catch {
    return new Map();
  }
  const trusted = file.format === SECTION_FORMAT && file.build === identity.build && file.context === identity.context;
  if (!trusted || !Array.isArray(file.entries) || !file.entries.every(isPair)) return new Map();
  return new Map(file.entries);
}

function isPair(entry: unknown): entry is [string, unknown] {
  return Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string';
}
