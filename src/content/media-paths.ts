import type { Stats } from 'node:fs';
import { dirname, isAbsolute, resolve, win32 } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { FileLookups } from './file-lookups.js';
import type { MediaMemo } from './media-memo.js';
import { isInside, relativePosix } from '../text/paths.js';
import type { DesiredMedia, SourcePosition } from './types.js';
import type { DataPath, YamlSource } from '../text/yaml-source.js';

export interface MediaContext {
  /** Absolute project root. */
  root: string;
  /** Project-relative path of the post file. */
  file: string;
  locate: YamlSource['locate'];
  /** What media files hold (hash, size, type), by real path and file stamp. */
  media: Pick<MediaMemo, 'facts'>;
  /** Shared by the files of one read, so a media file used by many posts is looked up once. */
  lookups?: FileLookups;
}

export interface ResolvedMedia {
  /** Only entries that resolved cleanly, in post order. */
  media: DesiredMedia[];
  positions: (SourcePosition | null)[];
  diagnostics: Diagnostic[];
}

/** Where one media file was found, or why it cannot be used (before it is placed in a post). */
export type FoundMedia = { media: Omit<DesiredMedia, 'ref'> } | { problem: MediaProblem };

/** Answers of `findMediaFiles`, by `mediaLookupKey(folder, ref)`. */
export type FoundMediaFiles = ReadonlyMap<string, FoundMedia>;

/** Why a media path cannot be used, before it is placed in a file (one lookup serves many posts). */
type MediaProblem = Pick<Diagnostic, 'code' | 'message' | 'expected' | 'found' | 'hint'>;

/** A media lookup: the path as written, in the folder (project-relative) of the post naming it. */
export interface MediaRequest {
  folder: string;
  ref: string;
}

/** Posts in one folder naming the same path find the same file, so that pair is looked up once. */
export function mediaLookupKey(folder: string, ref: string): string {
  return `media\0${folder}\0${ref}`;
}

const NO_REQUESTS: readonly MediaRequest[] = Object.freeze([]);

/** The lookups the `media:` entries (`raw`, as written) of the post file `file` need. */
export function mediaRequestsOf(raw: unknown, file: string): readonly MediaRequest[] {
  if (!Array.isArray(raw) || raw.length === 0) return NO_REQUESTS;
  const folder = dirname(file);
  const requests: MediaRequest[] = [];
  for (const entry of raw) {
    const ref = entryParts(entry)?.ref;
    if (ref !== undefined) requests.push({ folder, ref });
  }
  return requests;
}

/** Looks up each (folder, path) pair once per read (`lookups`), hashing and probing the files found. */
export async function findMediaFiles(requests: Iterable<MediaRequest>, context: Omit<MediaContext, 'file' | 'locate'>): Promise<FoundMediaFiles> {
  const lookups = context.lookups ?? new FileLookups();
  const realRoot = lookups.realpath(context.root);
  const found = new Map<string, Promise<FoundMedia>>();
  for (const { folder, ref } of requests) {
    const key = mediaLookupKey(folder, ref);
    if (!found.has(key)) found.set(key, lookups.once(key, () => findMediaFile(ref, folder, realRoot, { ...context, lookups })));
  }
  const answers = await Promise.all(found.values());
  return new Map([...found.keys()].map((key, index) => [key, answers[index]!]));
}

/**
 * `media:` entries → DesiredMedia. A path is looked up next to the post file first, then from the
 * project root; it must exist, be a regular file and stay inside the project, also after
 * following symlinks (so a post can never upload a file from elsewhere on the machine).
 */
export async function resolveMedia(raw: unknown, context: MediaContext): Promise<ResolvedMedia> {
  return placeMedia(raw, context, await findMediaFiles(mediaRequestsOf(raw, context.file), context));
}

/** The post's `media:` entries with their files found (by `findMediaFiles`): the post's media, or its media problems. */
export function placeMedia(raw: unknown, post: Pick<MediaContext, 'file' | 'locate'>, found: FoundMediaFiles): ResolvedMedia {
  const result: ResolvedMedia = { media: [], positions: [], diagnostics: [] };
  if (!Array.isArray(raw)) return result;
  const folder = dirname(post.file);
  raw.forEach((entry: unknown, index) => {
    const parts = entryParts(entry);
    if (parts === undefined) return;
    const { ref, alt, isObject } = parts;
    const answer = found.get(mediaLookupKey(folder, ref));
    if (answer === undefined) throw new Error(`media path \`${ref}\` of ${post.file} was not looked up`);
    if ('problem' in answer) {
      const path: DataPath = isObject ? ['media', index, 'path'] : ['media', index];
      const { code, message, ...details } = answer.problem;
      result.diagnostics.push({ severity: 'error', code, message, file: post.file, ...post.locate(path), found: `\`${ref}\``, ...details });
      return;
    }
    const media: DesiredMedia = { ...answer.media, ref };
    if (typeof alt === 'string') media.alt = alt;
    result.media.push(media);
    result.positions.push(post.locate(['media', index]) ?? null);
  });
  return result;
}

/** A `media:` entry is a path, or `{ path, alt }`; anything else without a path is left to the schema check. */
function entryParts(entry: unknown): { ref: string; alt: unknown; isObject: boolean } | undefined {
  const isObject = typeof entry === 'object' && entry !== null && !Array.isArray(entry);
  const ref = typeof entry === 'string' ? entry : isObject ? (entry as Record<string, unknown>).path : undefined;
  if (typeof ref !== 'string' || ref === '') return undefined;
  return { ref, alt: isObject ? (entry as Record<string, unknown>).alt : undefined, isObject };
}

async function findMediaFile(ref: string, folder: string, realRoot: string, context: Omit<MediaContext, 'file' | 'locate'> & { lookups: FileLookups }): Promise<FoundMedia> {
  const fail = (code: string, message: string, details: Omit<MediaProblem, 'code' | 'message'>) => ({ problem: { code, message, ...details } });
  if (isAbsolute(ref) || win32.isAbsolute(ref)) {
    return fail('media-path-absolute', `media path \`${ref}\` is absolute`, { expected: 'a path relative to the post file or the project root', hint: 'Move the file into the project and write its relative path.' });
  }
  const candidates = [...new Set([resolve(context.root, folder, ref), resolve(context.root, ref)])];
  const inside = candidates.filter((candidate) => isInside(context.root, candidate));
  let found: { path: string; stats: Stats } | undefined;
  for (const candidate of inside) {
    const stats = await context.lookups.stat(candidate);
    if (stats !== undefined) {
      found = { path: candidate, stats };
      break;
    }
  }
  if (found === undefined) {
    if (inside.length < candidates.length) {
      return fail('media-outside-project', `media path \`${ref}\` leads outside the project`, { expected: 'a file inside the project folder', hint: 'Copy the file into the project (e.g. a `media/` folder) and reference it from there.' });
    }
    const differentCase = caseVariant(ref, [resolve(context.root, folder), context.root], context);
    if (differentCase !== undefined) {
      return fail('media-wrong-case', `media file \`${ref}\` does not exist; \`${differentCase}\` differs only in letter case`, {
        expected: `the file name exactly as on disk`,
        hint: `did you mean \`${differentCase}\`? File names are case-sensitive on Linux (a CI runner), though not on a Mac or Windows by default.`,
      });
    }
    const looked = inside.map((candidate) => `\`${relativePosix(context.root, candidate)}\``).join(' or ');
    return fail('media-not-found', `media file \`${ref}\` does not exist`, { expected: `a file at ${looked}`, hint: 'Check the spelling; paths are relative to the post file or the project root.' });
  }
  const real = context.lookups.realpath(found.path);
  if (!isInside(realRoot, real)) {
    return fail('media-outside-project', `media path \`${ref}\` is a symlink that leads outside the project`, { expected: 'a file inside the project folder', hint: 'Replace the symlink with a copy of the file inside the project.' });
  }
  if (!found.stats.isFile()) {
    return fail('media-not-a-file', `media path \`${ref}\` is not a file`, { expected: 'an image or video file', hint: 'Point at a file, not a folder.' });
  }
  let facts;
  try {
    facts = await context.media.facts(real, found.stats);
  } catch (error) {
    return fail('media-unreadable', `media file \`${ref}\` cannot be read`, { expected: 'a readable file', hint: `Check its permissions (${(error as NodeJS.ErrnoException).code ?? 'read error'}).` });
  }
  if (facts.kind === 'unknown') {
    return fail('media-unsupported-type', `media file \`${ref}\` is neither an image nor a video`, { expected: 'an image (PNG, JPEG, WebP, GIF) or a video (MP4, MOV)', found: facts.problem ?? (facts.contentType === '' ? 'an unknown file type' : facts.contentType), hint: 'Attach an image or a video file.' });
  }
  return {
    media: {
      path: relativePosix(realRoot, real),
      absolutePath: real,
      sha256: facts.sha256,
      sizeBytes: facts.sizeBytes,
      contentType: facts.contentType,
      kind: facts.kind,
    },
  };
}

/**
 * `ref` as written with each name in the letter case of the file or folder on disk, from the first
 * base folder (absolute) where every name exists but for its case; undefined when there is none.
 * Only the folders on the way are listed, once per read (`lookups`).
 */
function caseVariant(ref: string, bases: readonly string[], context: { root: string; lookups: FileLookups }): string | undefined {
  const names = ref.split(/[\\/]/);
  for (const base of bases) {
    let dir = base;
    const found: string[] = [];
    for (const name of names) {
      if (name === '' || name === '.' || name === '..') {
        found.push(name);
        dir = resolve(dir, name === '' ? '.' : name);
        continue;
      }
      const entries = context.lookups.names(dir);
      const match = entries.includes(name) ? name : entries.find((entry) => entry.toLowerCase() === name.toLowerCase());
      if (match === undefined) break;
      found.push(match);
      dir = resolve(dir, match);
    }
    if (found.length === names.length && isInside(context.root, dir)) return found.join('/');
  }
  return undefined;
}
