import { hash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config/types.js';
import { hasErrors, type Diagnostic } from '../diagnostics.js';
import { sortDiagnostics } from '../text/ordering.js';
import { relativePosix } from '../text/paths.js';
import { shapeHash } from './shape-hash.js';
import { FileLookups } from './file-lookups.js';
import type { PostFileReading, PostText } from './interpret-file.js';
import { MediaCache, type MediaProbe } from './media-cache.js';
import { resolveMedia, type ResolvedMedia } from './media-paths.js';
import { readPostBytes } from './post-bytes.js';
import { fingerprintOf, summaryOf, type EarlierReadings } from './post-summary.js';
import { postKeyFromPath } from './post-key.js';
import { checkSchedule, type AcceptPastSchedule } from './schedule-check.js';
import type { DesiredPost, SourcePosition, UnchangedPost } from './types.js';

export type ContentConfig = Pick<Config, 'root' | 'contentDir' | 'timezone' | 'accounts'>;

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
  /**
   * What earlier runs read (src/cache): `readContent` then gives a file known unchanged as an
   * UnchangedPost without reading it, and every file read in full is remembered.
   */
  earlier?: EarlierReadings;
}

/** One post file read on its own; `watch` can keep these per file and recombine them. */
export interface ContentFileResult {
  /** Project-relative path, forward slashes. */
  file: string;
  /** The post's key, also when the file has other errors; null when it cannot be known. */
  key: string | null;
  /** Position of `id:` when the key comes from it. */
  keyPosition?: SourcePosition;
  /** Set when `key` is null: the key the file's path gives (`postKeyFromPath`), which its post is blocked under. */
  pathKey?: string;
  /** The post, or null when the file has any error (or is given as `unchanged`). */
  post: DesiredPost | null;
  /** Set instead of `post` when the file is unchanged since an earlier run (see `earlier`). */
  unchanged?: UnchangedPost;
  diagnostics: Diagnostic[];
}

/** Reads, parses, validates and normalizes one post file. `file` is absolute or project-relative. */
export async function readContentFile(file: string, options: ReadContentOptions): Promise<ContentFileResult> {
  const { config } = options;
  const absolute = resolve(config.root, file);
  const relativeFile = relativePosix(config.root, absolute);
  const lookups = options.lookups ?? new FileLookups();
  const readAt = Date.now();
  const read = await readPostBytes(absolute, config.root, lookups);
  if ('problem' in read) return { file: relativeFile, key: null, pathKey: pathKeyOf(relativeFile, config), post: null, diagnostics: [{ severity: 'error', file: relativeFile, ...read.problem }] };
  return readPostFromBytes(relativeFile, read.bytes, { ...options, lookups }, { stats: read.stats, readAt });
}

/**
 * A post file's bytes (read from `file`, or about to be written there) → its result, exactly as
 * `readContentFile` makes it. `file` is project-relative; `read` says how the bytes were read from
 * disk (a post read in full is remembered in `earlier` only then).
 */
export async function readPostFromBytes(file: string, bytes: Uint8Array, options: ReadContentOptions, read?: { stats: Stats; readAt: number }): Promise<ContentFileResult> {
  const { config } = options;
  // Loaded here: the YAML parser and the schema validator are needed only when a file is read in full.
  const { interpretPostFile } = await import('./interpret-file.js');
  const fileInContent = relativePosix(config.contentDir, resolve(config.root, file));
  const { reading, locate } = interpretPostFile(bytes, { file, fileInContent, timezone: config.timezone, accounts: config.accounts });
  if (reading.text === undefined) return { file, key: null, pathKey: postKeyFromPath(fileInContent), post: null, diagnostics: reading.diagnostics };
  const digest = hash('sha1', bytes, 'base64');
  const result = assemble(file, reading, reading.text, await resolveMedia(reading.text.media, { ...mediaContextOf(options), file, locate }), { ...options, digest });
  if (read !== undefined && result.post !== null) options.earlier?.remember(file, { digest, ...read }, summaryOf(reading, result.post));
  return result;
}

/** The key a project-relative post file gets from its path. */
function pathKeyOf(file: string, config: ContentConfig): string {
  return postKeyFromPath(relativePosix(config.contentDir, resolve(config.root, file)));
}

export function mediaContextOf(options: ReadContentOptions) {
  const context = { root: options.config.root, probe: options.probe, cache: options.mediaCache ?? new MediaCache(), lookups: options.lookups ?? new FileLookups() };
  return options.earlier === undefined ? context : { ...context, earlier: options.earlier };
}

/** A reading, its media and the clock check → the file's result. */
function assemble(file: string, reading: PostFileReading, text: PostText, media: ResolvedMedia, options: ReadContentOptions & { digest: string }): ContentFileResult {
  const key = reading.key!;
  const late = text.schedule === undefined ? undefined : checkSchedule(text.schedule, { key, file, now: options.now, acceptPastSchedule: options.acceptPastSchedule });
  const found = [...reading.diagnostics, ...media.diagnostics, ...(late === undefined ? [] : [late])];
  const diagnostics = found.length > 1 ? sortDiagnostics(found) : found;
  if (hasErrors(diagnostics)) return { file, key, ...(reading.keyPosition === undefined ? {} : { keyPosition: reading.keyPosition }), post: null, diagnostics };
  const shape = { content: text.content, scheduledAt: text.scheduledAt, targets: text.targets, media: media.media.map((m) => m.sha256) };
  const post: DesiredPost = {
    key,
    file,
    shape,
    shapeHash: shapeHash(shape),
    fingerprint: fingerprintOf(options.digest, shape.media),
    media: media.media,
    targetLabels: text.targetLabels,
    locations: { targets: text.targetPositions, media: media.positions, body: text.body },
  };
  return { file, key, ...(reading.keyPosition === undefined ? {} : { keyPosition: reading.keyPosition }), post, diagnostics };
}
