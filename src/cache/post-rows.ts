import type { MemoReading } from '../content/reading-memo.js';
import type { DesiredMedia, DesiredPost, PostShape } from '../content/types.js';
import type { LoadedEntries, SectionCodec } from './cache-section.js';
import type { PostEntry } from './post-memo.js';

/**
 * How `posts.json` holds the post memo's entries: what a load cannot rebuild, once. The parts many
 * posts have alike are kept once each in tables and named by index: resolved media (the same few
 * files for thousands of posts: `shape.media` is their sha256s), `media:` as written, and the
 * targets, labels and locations (posts written from one template share them). The file's stamp is
 * four numbers of the row, and the post's file the entry's key. A load gives back deep-equal
 * entries, their keys in the order content reading makes them; the posts of one file share the
 * parts they have alike, frozen, since nothing after content reading changes a post. A post of
 * another form (a field more, its `file` not the entry's) is kept whole (`WholeRow`).
 */
interface PostRows {
  /** Each distinct resolved media file of the posts, as a post names it but its `alt`. */
  media: Omit<DesiredMedia, 'alt'>[];
  /** Each distinct `media:` value as written. */
  given: unknown[];
  /** Each distinct `shape.targets`, `targetLabels` and `locations` of the posts. */
  parts: unknown[];
  rows: (PostRow | WholeRow)[];
}

type StampPart = [size: number, mtimeMs: number, ctimeMs: number, ino: number];

type PostRow = [
  file: string,
  ...StampPart,
  /**
   * The post, key for key, with 0 in place of `file`, `shape.media` and `media`, and an index into
   * `parts` in place of `shape.targets`, `targetLabels` and `locations`: a load puts them back in place.
   */
  post: DesiredPost,
  /** Each of `media`: an index into `PostRows.media`, or the index and the media's `alt`. */
  media: (number | [number, string])[],
  diagnostics: MemoReading['diagnostics'],
  schedule: MemoReading['schedule'] | 0,
  /** An index into `given`; -1: no `media:`. */
  given: number,
  snippets: MemoReading['snippets'] | 0,
  keyPosition: MemoReading['keyPosition'] | 0,
];

type WholeRow = [file: string, ...StampPart, reading: MemoReading];

interface Tables {
  media: Interned<Omit<DesiredMedia, 'alt'>>;
  given: Interned<unknown>;
  parts: Interned<unknown>;
}

const POST_ROW_LENGTH = 12;
const WHOLE_ROW_LENGTH = 6;

/**
 * Where a row keeps each field: `kept` as it is in the row's post, `placed` by a load (the entry's
 * key, the media table, `parts`). Typed by the post's own types, so a field added to a post does
 * not compile until it is named here: a post with a field the codec does not know would be kept
 * whole, every run, silently.
 */
type FieldPlace = 'kept' | 'placed';
const POST_FIELDS = {
  key: 'kept',
  file: 'placed',
  shape: 'kept',
  shapeHash: 'kept',
  fingerprint: 'kept',
  media: 'placed',
  targetLabels: 'placed',
  locations: 'placed',
  occurrence: 'kept',
  slot: 'kept',
  pencilledAt: 'kept',
  origins: 'kept',
} as const satisfies Record<keyof DesiredPost, FieldPlace>;
const SHAPE_FIELDS = { content: 'kept', scheduledAt: 'kept', targets: 'placed', media: 'placed' } as const satisfies Record<keyof PostShape, FieldPlace>;
/** In the order content reading makes them (`placeMedia`), which a load's literal (`readingOf`) follows. */
const MEDIA_FIELDS = { path: 'placed', absolutePath: 'placed', sha256: 'placed', sizeBytes: 'placed', contentType: 'placed', kind: 'placed', ref: 'placed' } as const satisfies Record<Exclude<keyof DesiredMedia, 'alt'>, FieldPlace>;
const READING_FIELDS = { post: 'placed', keyPosition: 'placed', diagnostics: 'placed', schedule: 'placed', media: 'placed', snippets: 'placed' } as const satisfies Record<keyof MemoReading, FieldPlace>;
const MEDIA_KEYS = Object.keys(MEDIA_FIELDS);

export const postRowsCodec: SectionCodec<PostEntry> = {
  encode(entries) {
    const tables: Tables = { media: new Interned(), given: new Interned(), parts: new Interned() };
    const rows = [...entries].map(([file, entry]) => rowOf(file, entry, tables));
    return { media: tables.media.values, given: tables.given.values, parts: tables.parts.values, rows } satisfies PostRows;
  },
  decode(raw) {
    if (!isPostRows(raw)) return undefined;
    return new LoadedRows(raw);
  },
};

function rowOf(file: string, { stamp, reading }: PostEntry, tables: Tables): PostRow | WholeRow {
  const stampPart: StampPart = [stamp.size, stamp.mtimeMs, stamp.ctimeMs, stamp.ino];
  const { post } = reading;
  if (!fitsPostRow(file, reading)) return [file, ...stampPart, reading];
  const media = post.media.map(({ alt, ...found }) => {
    const index = tables.media.indexOf(found);
    return alt === undefined ? index : ([index, alt] as [number, string]);
  });
  const { parts } = tables;
  const placeholders = {
    ...post,
    file: 0,
    shape: { ...post.shape, targets: parts.indexOf(post.shape.targets), media: 0 },
    media: 0,
    targetLabels: parts.indexOf(post.targetLabels),
    ...(post.locations === undefined ? {} : { locations: parts.indexOf(post.locations) }),
  } as unknown as DesiredPost;
  return [
    file,
    ...stampPart,
    placeholders,
    media,
    reading.diagnostics,
    reading.schedule ?? 0,
    reading.media === undefined ? -1 : tables.given.indexOf(reading.media),
    reading.snippets ?? 0,
    reading.keyPosition ?? 0,
  ];
}

/** Whether a `PostRow` gives `reading` back whole: its post is of the form content reading makes, with no field a row does not know. */
function fitsPostRow(file: string, reading: MemoReading): boolean {
  const { post } = reading;
  return (
    post.file === file &&
    knownKeys(post, POST_FIELDS) &&
    knownKeys(post.shape, SHAPE_FIELDS) &&
    post.shape.media.length === post.media.length &&
    post.media.every((media, index) => media.sha256 === post.shape.media[index] && sameKeys(media, media.alt === undefined ? MEDIA_KEYS : [...MEDIA_KEYS, 'alt'])) &&
    knownKeys(reading, READING_FIELDS)
  );
}

/** Whether every own key of `value` is one of `fields` (a row keeps the keys it holds in their order). */
function knownKeys(value: object, fields: object): boolean {
  return Object.keys(value).every((key) => Object.hasOwn(fields, key));
}

/** Whether `value`'s own keys are `keys`, in order: a load makes a media entry key by key. */
function sameKeys(value: object, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && own.every((key, index) => key === keys[index]);
}

/**
 * The entries of a loaded file, each made into its entry when first asked for, which then takes
 * its row's place: a row is made into an entry once (its post is filled in place), and every
 * later ask gives the same entry.
 */
class LoadedRows implements LoadedEntries<PostEntry> {
  readonly #rows = new Map<string, PostRow | WholeRow | PostEntry>();
  readonly #tables: PostRows;

  constructor(raw: PostRows) {
    raw.parts.forEach(deepFreeze);
    this.#tables = raw;
    for (const row of raw.rows) this.#rows.set(row[0], row);
  }

  get size(): number {
    return this.#rows.size;
  }

  has(key: string): boolean {
    return this.#rows.has(key);
  }

  get(key: string): PostEntry | undefined {
    const row = this.#rows.get(key);
    if (row === undefined || !Array.isArray(row)) return row;
    const entry = entryOf(row, this.#tables);
    if (entry === undefined) this.#rows.delete(key);
    else this.#rows.set(key, entry);
    return entry;
  }
}

function entryOf(row: PostRow | WholeRow, tables: PostRows): PostEntry | undefined {
  const stamp = { size: row[1], mtimeMs: row[2], ctimeMs: row[3], ino: row[4] };
  if (row.length === WHOLE_ROW_LENGTH) return { stamp, reading: row[5] };
  try {
    return { stamp, reading: readingOf(row, tables) };
  } catch {
    // A damaged row (the file is JSON, but not as written) is no entry: the file is read in full.
    return undefined;
  }
}

/**
 * The reading a row holds. Its post is the object JSON.parse made, its placeholders filled in
 * place (so its keys keep their order): a load makes no second copy of the posts.
 */
function readingOf(row: PostRow, tables: PostRows): MemoReading {
  // Indexes, not destructuring: a destructured array goes through the iterator protocol, once per post.
  const refs = row[6];
  const media = new Array<DesiredMedia>(refs.length);
  const shapeMedia = new Array<string>(refs.length);
  for (let index = 0; index < refs.length; index++) {
    const ref = refs[index]!;
    const found = tables.media[typeof ref === 'number' ? ref : ref[0]]!;
    // A literal, key for key as content reading makes it (`placeMedia`): faster to make than a spread.
    const one: DesiredMedia = { path: found.path, absolutePath: found.absolutePath, sha256: found.sha256, sizeBytes: found.sizeBytes, contentType: found.contentType, kind: found.kind, ref: found.ref } satisfies Required<Omit<DesiredMedia, 'alt'>>;
    if (typeof ref !== 'number') one.alt = ref[1];
    media[index] = one;
    shapeMedia[index] = found.sha256;
  }
  const post = row[5];
  const { parts } = tables;
  post.file = row[0];
  post.shape.targets = parts[post.shape.targets as unknown as number] as DesiredPost['shape']['targets'];
  post.shape.media = shapeMedia;
  post.media = media;
  post.targetLabels = parts[post.targetLabels as unknown as number] as string[];
  if (post.locations !== undefined) post.locations = parts[post.locations as unknown as number] as DesiredPost['locations'];
  const reading: MemoReading = { post, diagnostics: row[7], media: row[9] < 0 ? undefined : tables.given[row[9]] };
  if (row[11] !== 0) reading.keyPosition = row[11];
  if (row[8] !== 0) reading.schedule = row[8];
  if (row[10] !== 0) reading.snippets = row[10];
  return reading;
}

function isPostRows(raw: unknown): raw is PostRows {
  if (typeof raw !== 'object' || raw === null) return false;
  const { media, given, parts, rows } = raw as Partial<PostRows>;
  return Array.isArray(media) && Array.isArray(given) && Array.isArray(parts) && Array.isArray(rows) && rows.every(isRow);
}

function isRow(row: unknown): row is PostRow | WholeRow {
  return Array.isArray(row) && (row.length === POST_ROW_LENGTH || row.length === WHOLE_ROW_LENGTH) && typeof row[0] === 'string';
}

/** Distinct values by their JSON, each with its index. */
class Interned<T> {
  readonly values: T[] = [];
  readonly #indexes = new Map<string, number>();

  indexOf(value: T): number {
    const json = JSON.stringify(value);
    let index = this.#indexes.get(json);
    if (index === undefined) {
      index = this.values.push(value) - 1;
      this.#indexes.set(json, index);
    }
    return index;
  }
}

/** Freezes `value` and everything in it: shared by many posts, it must never change under one of them. */
function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
}
