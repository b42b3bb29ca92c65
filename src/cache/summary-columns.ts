import type { LoadedEntries, SectionCodec } from './cache-section.js';
import type { SummaryEntry } from './summary-store.js';

/**
 * The `posts` section's entries as columns: every run loads all of them, and JSON.parse makes a few
 * arrays of strings and one base64 string of numbers in about a third of the time it takes to make
 * 10,000 tuples, each with its own arrays and copies of the same account ids and check results
 * (which also left ~60,000 more objects for every garbage collection to copy or mark). An entry
 * becomes a SummaryEntry when it is asked for; equal values are shared by the entries that hold
 * them, and nobody modifies them.
 */
interface SummaryColumns {
  files: string[];
  digests: string[];
  shapeHashes: string[];
  mediaHashes: string[];
  keys: string[];
  /** Size, mtimeMs, ctimeMs and ino of each file's stamp, as float64 little-endian, in base64. */
  stamps: string;
  /** Account ids, media, seldom fields and checks of each file: indexes into `values`. */
  refs: number[];
  /** Each distinct value of those four fields once. */
  values: unknown[];
}

const STAMP_FIELDS = 4;
const REF_FIELDS = 4;

export const summaryColumns: SectionCodec<SummaryEntry> = {
  encode(entries) {
    const columns: SummaryColumns = { files: [], digests: [], shapeHashes: [], mediaHashes: [], keys: [], stamps: '', refs: [], values: [] };
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
    for (const [file, [digest, size, mtimeMs, ctimeMs, ino, shapeHash, mediaHashes, key, accountIds, media, seldom, checks]] of entries) {
      columns.files.push(file);
      columns.digests.push(digest);
      columns.shapeHashes.push(shapeHash);
      columns.mediaHashes.push(mediaHashes);
      columns.keys.push(key);
      [size, mtimeMs, ctimeMs, ino].forEach((value, field) => stamps.setFloat64((row * STAMP_FIELDS + field) * 8, value, true));
      columns.refs.push(refOf(accountIds), refOf(media), refOf(seldom), refOf(checks));
      row += 1;
    }
    columns.stamps = Buffer.from(stamps.buffer).toString('base64');
    return columns;
  },

  decode(raw) {
    const columns = raw as Partial<SummaryColumns> | null;
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
    const stamp = (row: number, field: number) => stamps.getFloat64((row * STAMP_FIELDS + field) * 8, true);
    return new SummaryRows(rows, (row) => [
      digests![row],
      stamp(row, 0),
      stamp(row, 1),
      stamp(row, 2),
      stamp(row, 3),
      shapeHashes![row],
      mediaHashes![row],
      keys![row],
      values[refs[row * REF_FIELDS]!],
      values[refs[row * REF_FIELDS + 1]!],
      values[refs[row * REF_FIELDS + 2]!],
      values[refs[row * REF_FIELDS + 3]!],
    ] as SummaryEntry);
  },
};

/** Loaded columns by file, each row made into a SummaryEntry when asked for. */
class SummaryRows implements LoadedEntries<SummaryEntry> {
  readonly #rows: ReadonlyMap<string, number>;
  readonly #entryAt: (row: number) => SummaryEntry;

  constructor(rows: ReadonlyMap<string, number>, entryAt: (row: number) => SummaryEntry) {
    this.#rows = rows;
    this.#entryAt = entryAt;
  }

  get size(): number {
    return this.#rows.size;
  }

  has(file: string): boolean {
    return this.#rows.has(file);
  }

  get(file: string): SummaryEntry | undefined {
    const row = this.#rows.get(file);
    return row === undefined ? undefined : this.#entryAt(row);
  }
}
