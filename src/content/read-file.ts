import { hash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { resolve } from 'node:path';
import type { StampSource } from '../cache/file-stamps.js';
import type { Config } from '../config/types.js';
import { hasErrors, type Diagnostic } from '../diagnostics.js';
import { FileLookups } from './file-lookups.js';
import type { PostFileReading, PostText } from './interpret-file.js';
import { MediaCache, type MediaProbe } from './media-cache.js';
import { findMediaFiles, mediaRequestsOf, placeMedia, resolveMedia, type FoundMediaFiles, type ResolvedMedia } from './media-paths.js';
import { sortDiagnostics } from '../text/ordering.js';
import { relativePosix } from '../text/paths.js';
import { postFileStats, readPostBytes } from './post-bytes.js';
import { checkSchedule, type AcceptPastSchedule } from './schedule-check.js';
import { shapeHash } from '../state/hash.js';
import { fingerprintOf, summaryOf, type PostFactStore, type SummaryStore } from './post-summary.js';
import type { DesiredPost, PostShape, SourcePosition, UnchangedPost } from './types.js';
import type { YamlSource } from '../text/yaml-source.js';

export type ContentConfig = Pick<Config, 'root' | 'contentDir' | 'timezone' | 'accounts'>;

/**
 * Readings kept from earlier runs, by project-relative file and the digest of its bytes (src/cache
 * keeps them in `.postsync/cache`). Only readings without errors are set.
 */
export interface ReadingStore extends PostFactStore {
  /** The reading of `file` (and the digest of its bytes) when its stamp (size, times, inode) is the one kept with it: the bytes need not be read. */
  byStamp(file: string, stats: StampSource): { digest: string; reading: PostFileReading } | undefined;
  get(file: string, digest: string): PostFileReading | undefined;
  /** `read`: the file's stamp and when its bytes were read (a stamp is kept only once it has settled). */
  set(file: string, digest: string, reading: PostFileReading, read?: { stats: StampSource; readAt: number }): void;
  /** Notes the stamp of `file`, whose bytes (with this digest, kept already) were just read again. */
  restamp(file: string, digest: string, read: { stats: StampSource; readAt: number }): void;
}

export interface ReadContentOptions {
  config: ContentConfig;
  /** The current time, for the "in the past" check; content reading never reads the clock. */
  now: Date;
  probe: MediaProbe;
  /** Reuse across files and runs so each media file is hashed once; one is made when absent. */
  mediaCache?: MediaCache;
  acceptPastSchedule?: AcceptPastSchedule;
  /** Real paths and media stats shared by the files of one read; one is made per file when absent. */
  lookups?: FileLookups;
  /** Earlier readings to reuse when a file's bytes are unchanged; every file is parsed without it. */
  readings?: ReadingStore;
  /**
   * Summaries of files read in full before: `readContent` then gives a settled, unchanged file as
   * an UnchangedPost without reading it, and every file read in full is summarized again.
   */
  summaries?: SummaryStore;
}

/** One post file read on its own; `watch` can keep these per file and recombine them. */
export interface ContentFileResult {
  /** Project-relative path, forward slashes. */
  file: string;
  /** The post's key, also when the file has other errors; null when it cannot be known. */
  key: string | null;
  /** Position of `id:` when the key comes from it. */
  keyPosition?: SourcePosition;
  /** The post, or null when the file has any error (or is given as `unchanged`). */
  post: DesiredPost | null;
  /** Set instead of `post` when the file is unchanged since an earlier run (see `summaries`). */
  unchanged?: UnchangedPost;
  diagnostics: Diagnostic[];
}

/**
 * Reads, parses, validates and normalizes one post file. `file` is absolute or project-relative.
 * With `readings`, unchanged bytes reuse the earlier reading (no YAML parse, no schema check);
 * the media paths and the clock are checked on every read all the same.
 */
export async function readContentFile(file: string, options: ReadContentOptions): Promise<ContentFileResult> {
  const { config } = options;
  const absolute = resolve(config.root, file);
  const relativeFile = relativePosix(config.root, absolute);
  const lookups = options.lookups ?? new FileLookups();
  const shared = { ...options, lookups };
  if (options.readings !== undefined) {
    // Like git's index: an unchanged stamp means unchanged bytes, so the file is not even read.
    const stats = await postFileStats(absolute, config.root, lookups);
    const kept = stats === undefined ? undefined : options.readings.byStamp(relativeFile, stats);
    const reused = kept === undefined ? undefined : await reuseReading(relativeFile, kept.reading, kept.digest, shared);
    if (reused !== undefined) return reused;
  }
  const readAt = Date.now();
  const read = await readPostBytes(absolute, config.root, lookups);
  if ('problem' in read) return { file: relativeFile, key: null, post: null, diagnostics: [{ severity: 'error', file: relativeFile, ...read.problem }] };
  return readPostFromBytes(relativeFile, read.bytes, shared, { stats: read.stats, readAt });
}

/**
 * A post file's bytes (read from `file`, or about to be written there) → its result, exactly as
 * `readContentFile` makes it. `file` is project-relative.
 */
export async function readPostFromBytes(file: string, bytes: Uint8Array, options: ReadContentOptions, read?: { stats: Stats; readAt: number }): Promise<ContentFileResult> {
  const { config } = options;
  const interpret = async () => {
    const { interpretPostFile } = await import('./interpret-file.js');
    const fileInContent = relativePosix(config.contentDir, resolve(config.root, file));
    return interpretPostFile(bytes, { file, fileInContent, timezone: config.timezone, accounts: config.accounts });
  };
  const digest = options.readings === undefined && options.summaries === undefined ? undefined : hash('sha1', bytes, 'base64');
  const kept = digest === undefined ? undefined : options.readings?.get(file, digest);
  const reused = kept === undefined ? undefined : await reuseReading(file, kept, digest!, options);
  if (reused !== undefined) {
    if (read !== undefined) options.readings!.restamp(file, digest!, read);
    return reused;
  }
  const { reading, locate } = await interpret();
  if (digest !== undefined && !hasErrors(reading.diagnostics)) options.readings?.set(file, digest, reading, read);
  if (reading.text === undefined) return { file, key: null, post: null, diagnostics: reading.diagnostics };
  const result = assemble(file, reading, reading.text, await resolveMedia(reading.text.media, { ...mediaContextOf(options), file, locate }), { ...options, digest });
  if (digest !== undefined && result.post !== null) options.summaries?.set(file, digest, summaryOf(reading, result.post, digest), read);
  return result;
}

/**
 * A kept reading with this run's media and clock checks, or undefined when a media path has a
 * problem: its message needs positions only the parsed front-matter knows.
 */
async function reuseReading(file: string, kept: PostFileReading, digest: string, options: ReadContentOptions): Promise<ContentFileResult | undefined> {
  if (kept.text === undefined) return undefined;
  const found = await findMediaFiles(mediaRequestsOf(kept.text.media, file), mediaContextOf(options));
  return reuseReadingWith(file, { reading: kept, digest }, found, options);
}

/** `reuseReading` once the media files of the reading are found. */
export function reuseReadingWith(file: string, kept: { reading: PostFileReading; digest: string }, found: FoundMediaFiles, options: ReadContentOptions): ContentFileResult | undefined {
  const { reading } = kept;
  if (reading.text === undefined) return undefined;
  const media = placeMedia(reading.text.media, { file, locate: mediaPositionsOf(reading.text) }, found);
  return media.diagnostics.length === 0 ? assemble(file, reading, reading.text, media, { ...options, digest: kept.digest }) : undefined;
}

export function mediaContextOf(options: ReadContentOptions) {
  return { root: options.config.root, probe: options.probe, cache: options.mediaCache ?? new MediaCache(), lookups: options.lookups ?? new FileLookups() };
}

/** A reading, its media and the clock check → the file's result. */
function assemble(file: string, reading: PostFileReading, text: PostText, media: ResolvedMedia, options: ReadContentOptions & { digest: string | undefined }): ContentFileResult {
  const key = reading.key!;
  const late = text.schedule === undefined ? undefined : checkSchedule(text.schedule, { key, file, now: options.now, acceptPastSchedule: options.acceptPastSchedule });
  const found = [...reading.diagnostics, ...media.diagnostics, ...(late === undefined ? [] : [late])];
  const diagnostics = found.length > 1 ? sortDiagnostics(found) : found;
  if (hasErrors(diagnostics)) return { file, key, ...(reading.keyPosition === undefined ? {} : { keyPosition: reading.keyPosition }), post: null, diagnostics };
  const shape = { content: text.content, scheduledAt: text.scheduledAt, targets: text.targets, media: media.media.map((m) => m.sha256) };
  const fingerprint = options.digest === undefined ? undefined : fingerprintOf(options.digest, shape.media);
  const post: DesiredPost = {
    key,
    file,
    shape,
    shapeHash: knownShapeHash(file, shape, fingerprint, options.readings),
    ...(fingerprint === undefined ? {} : { fingerprint }),
    media: media.media,
    targetLabels: text.targetLabels,
    locations: { targets: text.targetPositions, media: media.positions, body: text.body },
  };
  return { file, key, ...(reading.keyPosition === undefined ? {} : { keyPosition: reading.keyPosition }), post, diagnostics };
}

/** The shape hash kept for this fingerprint, or worked out (and kept). */
function knownShapeHash(file: string, shape: PostShape, fingerprint: string | undefined, facts: PostFactStore | undefined): string {
  const kept = fingerprint === undefined ? undefined : facts?.facts(file, fingerprint)?.shapeHash;
  if (kept !== undefined) return kept;
  const hash = shapeHash(shape);
  if (fingerprint !== undefined) facts?.addFacts(file, fingerprint, { shapeHash: hash });
  return hash;
}

/** `locate` for a cached reading: the positions of the `media:` entries, which it kept. */
function mediaPositionsOf(text: PostText): YamlSource['locate'] {
  return (path) => (path.length === 2 && path[0] === 'media' && typeof path[1] === 'number' ? (text.mediaPositions[path[1]] ?? undefined) : undefined);
}
