import { randomBytes } from 'node:crypto';
import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Bumped when the layout of a section file changes: a file of another format is an empty section. */
export const SECTION_FORMAT = 3;

/** What a section file holds besides its entries: entries are trusted only when both match. */
export interface SectionIdentity {
  /** The postsync build that wrote the entries (dist/build-id.json). */
  build: string;
  /** What the entries were worked out from besides their own keys (e.g. timezone, aliases). */
  context: string;
}

interface SectionFile extends SectionIdentity {
  format: number;
  /** As the section's codec writes them. */
  entries: unknown;
}

/** A loaded section's entries by key; a codec may decode each one only when it is asked for. */
export interface LoadedEntries<T> {
  readonly size: number;
  get(key: string): T | undefined;
  has(key: string): boolean;
}

/** How a section file holds its entries. */
export interface SectionCodec<T> {
  encode(entries: ReadonlyMap<string, T>): unknown;
  /** The entries `encode` wrote; undefined for anything else. */
  decode(raw: unknown): LoadedEntries<T> | undefined;
}

/**
 * `[key, value]` pairs, not an object keyed by entry: JSON.parse makes an array of pairs and a
 * Map from it faster than an object of thousands of keys (each key interned).
 */
export function pairCodec<T>(): SectionCodec<T> {
  return {
    encode: (entries) => [...entries],
    decode: (raw) => (Array.isArray(raw) && raw.every(isPair) ? new Map(raw as [string, T][]) : undefined),
  };
}

/**
 * One file of `.postsync/cache/`: entries by key, loaded whole when opened and written whole (to a
 * temporary name, then renamed) by `save`. A cache is never trusted over the source: a missing,
 * unreadable, corrupt or foreign (other build, other context) file is an empty section.
 * `save` keeps the entries this run read or set and drops the others, so the file follows the
 * project instead of growing with every edit; a section nobody opened is left as it is.
 */
export class CacheSection<T> {
  readonly path: string;
  readonly #identity: SectionIdentity;
  readonly #codec: SectionCodec<T>;
  readonly #loaded: LoadedEntries<T>;
  readonly #used = new Map<string, T>();
  /** Sets and deletes so far, and how many of them the file holds. */
  #changes = 0;
  #savedChanges = 0;
  /** How many entries the file holds: the loaded ones, then as many as the last save wrote. */
  #written: number;

  private constructor(path: string, identity: SectionIdentity, codec: SectionCodec<T>) {
    this.path = path;
    this.#identity = identity;
    this.#codec = codec;
    this.#loaded = readEntries(path, identity, codec);
    this.#written = this.#loaded.size;
  }

  /** Reads the section file synchronously (it is read once, before any work starts). */
  static open<T>(path: string, identity: SectionIdentity, codec: SectionCodec<T> = pairCodec<T>()): CacheSection<T> {
    return new CacheSection<T>(path, identity, codec);
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
    this.#changes += 1;
  }

  /** Drops an entry the caller found stale. */
  delete(key: string): void {
    if (this.#used.delete(key) || this.#loaded.has(key)) this.#changes += 1;
  }

  /** Whether `save` would write: an entry was set, or the file holds entries not used this run. */
  get dirty(): boolean {
    return this.#changes !== this.#savedChanges || this.#used.size !== this.#written;
  }

  /** Writes the used entries when anything changed. Never throws: a cache that cannot be written is only slower next time. */
  async save(): Promise<boolean> {
    if (!this.dirty) return false;
    const changes = this.#changes;
    const written = this.#used.size;
    const json = JSON.stringify({ format: SECTION_FORMAT, ...this.#identity, entries: this.#codec.encode(this.#used) } satisfies SectionFile);
    const text = asciiJson(json);
    const temp = join(dirname(this.path), `.${basename(this.path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await mkdir(dirname(this.path), { recursive: true });
      // 'wx' (O_EXCL): the fresh name is never opened through a link; the rename replaces a link at `path`, never follows it.
      await writeFile(temp, text, { flag: 'wx' });
      await rename(temp, this.path);
      // A second save in the same run (the calendar saves after its plan did) writes only if something changed since.
      this.#savedChanges = changes;
      this.#written = written;
      return true;
    } catch {
      await rm(temp, { force: true }).catch(() => undefined);
      return false;
    }
  }
}

function readEntries<T>(path: string, identity: SectionIdentity, codec: SectionCodec<T>): LoadedEntries<T> {
  let file: Partial<SectionFile>;
  try {
    // `save` writes ASCII (asciiJson), which decodes as Latin-1 without the checks of UTF-8: anything else is not a file of ours.
    const bytes = readFileSync(path);
    if (!isAscii(bytes)) return new Map();
    file = JSON.parse(bytes.toString('latin1')) as Partial<SectionFile>;
  } catch {
    return new Map();
  }
  const trusted = file.format === SECTION_FORMAT && file.build === identity.build && file.context === identity.context;
  return (trusted ? codec.decode(file.entries) : undefined) ?? new Map();
}

/**
 * JSON with every character past ASCII written as a `\u` escape: one such character (a caption's
 * `é`) would otherwise make the whole file a two-byte string when read, slower to decode and to
 * parse (bench/README.md). JSON.parse reads the same values back.
 */
function asciiJson(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function isPair(entry: unknown): entry is [string, unknown] {
  return Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string';
}
