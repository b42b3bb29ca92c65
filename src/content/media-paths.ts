import type { Stats } from 'node:fs';
import { dirname, isAbsolute, resolve, win32 } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { FileLookups } from './file-lookups.js';
import type { MediaCache, MediaProbe } from './media-cache.js';
import { isInside, relativePosix } from './paths.js';
import type { DesiredMedia, SourcePosition } from './types.js';
import type { DataPath, YamlSource } from './yaml-source.js';

export interface MediaContext {
  /** Absolute project root. */
  root: string;
  /** Project-relative path of the post file. */
  file: string;
  locate: YamlSource['locate'];
  probe: MediaProbe;
  cache: MediaCache;
  /** Shared by the files of one read, so a media file used by many posts is looked up once. */
  lookups?: FileLookups;
}

export interface ResolvedMedia {
  /** Only entries that resolved cleanly, in post order. */
  media: DesiredMedia[];
  positions: (SourcePosition | null)[];
  diagnostics: Diagnostic[];
}

/**
 * `media:` entries → DesiredMedia. A path is looked up next to the post file first, then from the
 * project root; it must exist, be a regular file and stay inside the project, also after
 * following symlinks (so a post can never upload a file from elsewhere on the machine).
 */
export async function resolveMedia(raw: unknown, context: MediaContext): Promise<ResolvedMedia> {
  const result: ResolvedMedia = { media: [], positions: [], diagnostics: [] };
  if (!Array.isArray(raw)) return result;
  const lookups = context.lookups ?? new FileLookups();
  const realRoot = await lookups.realpath(context.root);
  const entries = await Promise.all(raw.map((entry: unknown, index) => resolveEntry(entry, index, realRoot, { ...context, lookups })));
  for (const entry of entries) {
    if (entry === undefined) continue;
    if ('diagnostic' in entry) result.diagnostics.push(entry.diagnostic);
    else {
      result.media.push(entry.media);
      result.positions.push(entry.position);
    }
  }
  return result;
}

type EntryResult = { media: DesiredMedia; position: SourcePosition | null } | { diagnostic: Diagnostic } | undefined;

/** Why a media path cannot be used, before it is placed in a file (one lookup serves many posts). */
type MediaProblem = Pick<Diagnostic, 'code' | 'message' | 'expected' | 'found' | 'hint'>;

async function resolveEntry(entry: unknown, index: number, realRoot: string, context: MediaContext & { lookups: FileLookups }): Promise<EntryResult> {
  const isObject = typeof entry === 'object' && entry !== null && !Array.isArray(entry);
  const ref = typeof entry === 'string' ? entry : isObject ? (entry as Record<string, unknown>).path : undefined;
  if (typeof ref !== 'string' || ref === '') return undefined;
  const alt = isObject ? (entry as Record<string, unknown>).alt : undefined;
  // Posts in one folder naming the same path find the same file: look it up once per read.
  const folder = dirname(context.file);
  const found = await context.lookups.once(`media\0${folder}\0${ref}`, () => findMediaFile(ref, folder, realRoot, context));
  if ('problem' in found) {
    const path: DataPath = isObject ? ['media', index, 'path'] : ['media', index];
    const { code, message, ...details } = found.problem;
    return { diagnostic: { severity: 'error', code, message, file: context.file, ...context.locate(path), found: `\`${ref}\``, ...details } };
  }
  const media: DesiredMedia = { ...found.media, ref };
  if (typeof alt === 'string') media.alt = alt;
  return { media, position: context.locate(['media', index]) ?? null };
}

async function findMediaFile(ref: string, folder: string, realRoot: string, context: MediaContext & { lookups: FileLookups }): Promise<{ media: Omit<DesiredMedia, 'ref'> } | { problem: MediaProblem }> {
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
    const looked = inside.map((candidate) => `\`${relativePosix(context.root, candidate)}\``).join(' and ');
    return fail('media-not-found', `media file \`${ref}\` does not exist`, { expected: `a file at ${looked}`, hint: 'Check the spelling; paths are relative to the post file or the project root.' });
  }
  const real = await context.lookups.realpath(found.path);
  if (!isInside(realRoot, real)) {
    return fail('media-outside-project', `media path \`${ref}\` is a symlink that leads outside the project`, { expected: 'a file inside the project folder', hint: 'Replace the symlink with a copy of the file inside the project.' });
  }
  if (!found.stats.isFile()) {
    return fail('media-not-a-file', `media path \`${ref}\` is not a file`, { expected: 'an image or video file', hint: 'Point at a file, not a folder.' });
  }
  let facts;
  try {
    facts = await context.cache.describe(real, found.stats, context.probe);
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
