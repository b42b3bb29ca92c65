import { hash } from 'node:crypto';
import { closeSync, fstatSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config/types.js';
import { hasErrors, type Diagnostic } from '../diagnostics.js';
import { FileLookups } from './file-lookups.js';
import type { PostFileReading, PostText } from './interpret-file.js';
import { MediaCache, type MediaProbe } from './media-cache.js';
import { resolveMedia, type ResolvedMedia } from './media-paths.js';
import { sortDiagnostics } from './ordering.js';
import { isInside, relativePosix } from './paths.js';
import { checkSchedule, type AcceptPastSchedule } from './schedule-check.js';
import type { DesiredPost, SourcePosition } from './types.js';
import type { YamlSource } from './yaml-source.js';

/** Post files are text; anything bigger is a mistake (a video renamed `.md`, a generated dump). */
export const MAX_POST_FILE_BYTES = 1024 * 1024;

export type ContentConfig = Pick<Config, 'root' | 'contentDir' | 'timezone' | 'accounts'>;

/**
 * Readings kept from earlier runs, by project-relative file and the digest of its bytes
 * (src/cache/readings.ts keeps them in `.postsync/cache`). Only readings without errors are set.
 */
export interface ReadingStore {
  get(file: string, digest: string): PostFileReading | undefined;
  set(file: string, digest: string, reading: PostFileReading): void;
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
}

/** One post file read on its own; `watch` can keep these per file and recombine them. */
export interface ContentFileResult {
  /** Project-relative path, forward slashes. */
  file: string;
  /** The post's key, also when the file has other errors; null when it cannot be known. */
  key: string | null;
  /** Position of `id:` when the key comes from it. */
  keyPosition?: SourcePosition;
  /** The post, or null when the file has any error. */
  post: DesiredPost | null;
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
  const read = await readPostBytes(absolute, config.root, lookups);
  if ('problem' in read) return { file: relativeFile, key: null, post: null, diagnostics: [{ severity: 'error', file: relativeFile, ...read.problem }] };
  return readPostFromBytes(relativeFile, read.bytes, { ...options, lookups });
}

/**
 * A post file's bytes (read from `file`, or about to be written there) → its result, exactly as
 * `readContentFile` makes it. `file` is project-relative.
 */
export async function readPostFromBytes(file: string, bytes: Uint8Array, options: ReadContentOptions): Promise<ContentFileResult> {
  const { config } = options;
  const interpret = async () => {
    const { interpretPostFile } = await import('./interpret-file.js');
    const fileInContent = relativePosix(config.contentDir, resolve(config.root, file));
    return interpretPostFile(bytes, { file, fileInContent, timezone: config.timezone, accounts: config.accounts });
  };
  const mediaContext = { root: config.root, file, probe: options.probe, cache: options.mediaCache ?? new MediaCache(), lookups: options.lookups ?? new FileLookups() };
  const digest = options.readings === undefined ? undefined : hash('sha1', bytes, 'base64');
  const cached = digest === undefined ? undefined : options.readings!.get(file, digest);
  if (cached?.text !== undefined) {
    const media = await resolveMedia(cached.text.media, { ...mediaContext, locate: mediaPositionsOf(cached.text) });
    // A media problem is worded with positions only the parsed front-matter knows.
    if (media.diagnostics.length === 0) return assemble(file, cached, cached.text, media, options);
  }
  const { reading, locate } = await interpret();
  if (digest !== undefined && !hasErrors(reading.diagnostics)) options.readings!.set(file, digest, reading);
  if (reading.text === undefined) return { file, key: null, post: null, diagnostics: reading.diagnostics };
  return assemble(file, reading, reading.text, await resolveMedia(reading.text.media, { ...mediaContext, locate }), options);
}

/** A reading, its media and the clock check → the file's result. */
function assemble(file: string, reading: PostFileReading, text: PostText, media: ResolvedMedia, options: ReadContentOptions): ContentFileResult {
  const key = reading.key!;
  const late = text.schedule === undefined ? undefined : checkSchedule(text.schedule, { key, file, now: options.now, acceptPastSchedule: options.acceptPastSchedule });
  const diagnostics = sortDiagnostics([...reading.diagnostics, ...media.diagnostics, ...(late === undefined ? [] : [late])]);
  const post: DesiredPost | null = hasErrors(diagnostics)
    ? null
    : {
        key,
        file,
        shape: { content: text.content, scheduledAt: text.scheduledAt, targets: text.targets, media: media.media.map((m) => m.sha256) },
        media: media.media,
        targetLabels: text.targetLabels,
        locations: { targets: text.targetPositions, media: media.positions, body: text.body },
      };
  return { file, key, ...(reading.keyPosition === undefined ? {} : { keyPosition: reading.keyPosition }), post, diagnostics };
}

/** `locate` for a cached reading: the positions of the `media:` entries, which it kept. */
function mediaPositionsOf(text: PostText): YamlSource['locate'] {
  return (path) => (path.length === 2 && path[0] === 'media' && typeof path[1] === 'number' ? (text.mediaPositions[path[1]] ?? undefined) : undefined);
}

type FileProblem = Omit<Diagnostic, 'severity' | 'file'>;

/**
 * The bytes of a post file (open, fstat, read, close), once its real path is known to lie inside
 * the project (a symlink may not lead outside). The calls are synchronous on purpose: post files
 * are small (the size is checked before reading) and a project has thousands, and a synchronous
 * read of a cached file costs a fraction of the CPU time of a promise-based one (10,000 files:
 * ~0.08 s instead of ~0.6 s, bench/plan), while blocking the event loop only for microseconds.
 */
async function readPostBytes(absolute: string, root: string, lookups: FileLookups): Promise<{ bytes: Buffer } | { problem: FileProblem }> {
  const unreadable = (error: unknown): { problem: FileProblem } => {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { problem: { code: 'file-unreadable', message: `the file cannot be read (${reason})`, hint: 'Check that it exists and is readable.' } };
  };
  let opened;
  try {
    const realRoot = await lookups.realpath(root);
    opened = await lookups.openChecked(absolute, (realPath) => isInside(realRoot, realPath));
  } catch (error) {
    return unreadable(error);
  }
  if (opened === null) {
    return { problem: { code: 'file-outside-project', message: 'the file is a symlink that leads outside the project', hint: 'Replace the symlink with the file itself.' } };
  }
  const { fd } = opened;
  try {
    const { size } = fstatSync(fd);
    if (size > MAX_POST_FILE_BYTES) {
      return { problem: { code: 'file-too-large', message: 'the file is too large for a post', expected: `at most ${MAX_POST_FILE_BYTES / 1024 / 1024} MiB`, found: `${(size / 1024 / 1024).toFixed(1)} MiB`, hint: 'Post files hold text only; attach large files with `media:`.' } };
    }
    const bytes = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const read = readSync(fd, bytes, filled, size - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    return { bytes: bytes.subarray(0, filled) };
  } catch (error) {
    return unreadable(error);
  } finally {
    closeSync(fd);
  }
}
