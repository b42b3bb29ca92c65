import type { Diagnostic } from '../diagnostics.js';
import type { PostSummary } from '../content/post-summary.js';
import type { LoadedEntries, SectionCodec } from './cache-section.js';
import type { PostChecks, PostEntry } from './post-cache.js';

/**
 * How `posts.json` holds its entries: as columns. Every run loads all of them, and JSON.parse
 * makes a few arrays of strings and one base64 string of numbers much faster than one object per
 * entry with its own arrays and copies of the same account ids and check results, which would
 * also leave many more objects for every garbage collection (bench/README.md). A row becomes a
 * PostEntry when it is asked for; equal values are shared by the rows that hold them, and nobody
 * modifies them.
 */
interface PostColumns {
  files: string[];
  digests: string[];
  shapeHashes: string[];
  mediaHashes: string[];
  keys: string[];
  /** Size, mtimeMs, ctimeMs and ino of each file's stamp, as float64 little-endian, in base64; -1 for no stamp. */
  stamps: string;
  /** Account ids, media, seldom fields and checks of each file: indexes into `values`. */
  refs: number[];
  /** Each distinct value of those four fields once (0 for none). */
  values: unknown[];
}

/** The fields a post seldom has, kept together. */
type Seldom = Partial<Pick<PostSummary, 'keyPosition' | 'diagnostics' | 'schedule' | 'snippets'>>;
/** Check results, the diagnostics left out when there are none. */
type ChecksValue = [rules: string] | [rules: string, accounts: Diagnostic[], media: Diagnostic[]];

const STAMP_FIELDS = 4;
const REF_FIELDS = 4;
const NO_STAMP = -1;
/** Shared by every post checked without a diagnostic: frozen, so nobody can add to it. */
const NONE = Object.freeze([]) as unknown as Diagnostic[];

export const postColumns: SectionCodec<PostEntry> = {
  encode(entries) {
    const columns: PostColumns = { files: [], digests: [], shapeHashes: [], mediaHashes: [], keys: [], stamps: '', refs: [], values: [] };
    const stamps = new DataView(new ArrayBuffer(entries.size * STAMP_FIELDS * 8));
    const valueIndex = new Map<string, number>();
    const refOf = (value: unknown): number => {
      const text = JSON.stringify(value);
      let index = valueIndex.get(text);
      if (index === undefined) {
        index = columns.values.push(value) - 1;
        valueIndex.set(text, index);
      }
      return index;
    };
    let row = 0;
    for (const [file, { digest, stamp, summary, checks }] of entries) {
      columns.files.push(file);
      columns.digests.push(digest);
      columns.shapeHashes.push(summary.shapeHash);
      columns.mediaHashes.push(summary.mediaHashes);
      columns.keys.push(summary.key);
      const stampFields = stamp === null ? [NO_STAMP, NO_STAMP, NO_STAMP, NO_STAMP] : [stamp.size, stamp.mtimeMs, stamp.ctimeMs, stamp.ino];
      stampFields.forEach((value, field) => stamps.setFloat64((row * STAMP_FIELDS + field) * 8, value, true));
      columns.refs.push(refOf(summary.accountIds), refOf(summary.media ?? 0), refOf(seldomOf(summary)), refOf(checksValue(checks)));
      row += 1;
    }
    columns.stamps = Buffer.from(stamps.buffer).toString('base64');
    return columns;
  },

  decode(raw) {
    const columns = raw as Partial<PostColumns> | null;
    if (typeof columns !== 'object' || columns === null) return undefined;
    const { files, digests, shapeHashes, mediaHashes, keys, refs, values } = columns;
    if (!Array.isArray(files) || !Array.isArray(values) || typeof columns.stamps !== 'string') return undefined;
    const count = files.length;
    const sameLength = [digests, shapeHashes, mediaHashes, keys].every((column) => Array.isArray(column) && column.length === count);
    if (!sameLength || !Array.isArray(refs) || refs.length !== count * REF_FIELDS || !refs.every((ref) => Number.isInteger(ref) && ref >= 0 && ref < values.length)) return undefined;
    const bytes = Buffer.from(columns.stamps, 'base64');
    if (bytes.length !== count * STAMP_FIELDS * 8) return undefined;
    const stamps = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    const rows = new Map<string, number>();
    files.forEach((file, row) => rows.set(file, row));
    const stampField = (row: number, field: number) => stamps.getFloat64((row * STAMP_FIELDS + field) * 8, true);
    const value = (row: number, field: number) => values[refs[row * REF_FIELDS + field]!];
    return new PostRows(rows, (row) => {
      const summary: PostSummary = { key: keys![row]!, diagnostics: [], accountIds: value(row, 0) as string[], media: value(row, 1) === 0 ? undefined : value(row, 1), mediaHashes: mediaHashes![row]!, shapeHash: shapeHashes![row]! };
      const seldom = value(row, 2) as Seldom | 0;
      if (seldom !== 0) Object.assign(summary, seldom);
      const size = stampField(row, 0);
      const stamp = size === NO_STAMP ? null : { size, mtimeMs: stampField(row, 1), ctimeMs: stampField(row, 2), ino: stampField(row, 3) };
      return { digest: digests![row]!, stamp, summary, checks: checksOf(value(row, 3) as ChecksValue | 0) };
    });
  },
};

function seldomOf(summary: PostSummary): Seldom | 0 {
  const { keyPosition, diagnostics, schedule, snippets } = summary;
  const seldom: Seldom = {
    ...(keyPosition === undefined ? {} : { keyPosition }),
    ...(diagnostics.length === 0 ? {} : { diagnostics }),
    ...(schedule === undefined ? {} : { schedule }),
    ...(snippets === undefined ? {} : { snippets }),
  };
  return Object.keys(seldom).length === 0 ? 0 : seldom;
}

function checksValue(checks: PostChecks | null): ChecksValue | 0 {
  if (checks === null) return 0;
  const { rules, accounts, media } = checks;
  return accounts.length === 0 && media.length === 0 ? [rules] : [rules, accounts, media];
}

function checksOf(value: ChecksValue | 0): PostChecks | null {
  return value === 0 ? null : { rules: value[0], accounts: value[1] ?? NONE, media: value[2] ?? NONE };
}

/** Loaded columns by file, each row made into a PostEntry when asked for. */
class PostRows implements LoadedEntries<PostEntry> {
  readonly #rows: ReadonlyMap<string, number>;
  readonly #entryAt: (row: number) => PostEntry;

  constructor(rows: ReadonlyMap<string, number>, entryAt: (row: number) => PostEntry) {
    this.#rows = rows;
    this.#entryAt = entryAt;
  }

  get size(): number {
    return this.#rows.size;
  }

  has(file: string): boolean {
    return this.#rows.has(file);
  }

  get(file: string): PostEntry | undefined {
    const row = this.#rows.get(file);
    return row === undefined ? undefined : this.#entryAt(row);
  }
}
