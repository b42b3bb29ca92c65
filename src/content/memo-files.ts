import { resolve, sep } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { isInside } from '../text/paths.js';
import { FileLookups } from './file-lookups.js';
import { findMediaFiles, mediaLookupKey, mediaRequestsOf, type FoundMedia, type MediaRequest } from './media-paths.js';
import { hasErrors } from '../diagnostics.js';
import { sortDiagnostics } from '../text/ordering.js';
import type { MemoReading, ReadingMemo } from './reading-memo.js';
import type { DesiredMedia } from './types.js';
import { checkSchedule } from './schedule-check.js';
import { sameSnippets } from './snippet-files.js';
import { mediaContextOf, type ContentFileResult, type ReadContentOptions } from './read-file.js';

/**
 * Files handled between two turns of the event loop: the work is synchronous, and the listing of
 * remote posts that runs alongside needs a turn every millisecond or so to keep its requests going.
 */
const SLICE = 100;

interface MemoFile {
  index: number;
  file: string;
  reading: MemoReading;
  requests: readonly MediaRequest[];
}

/**
 * The results of the post files whose reading the memo holds, by index in `files`
 * (project-relative); undefined for every file that must be read. A reading is used when the memo
 * vouches for the file's bytes, its snippets and media paths resolve to the same files, and it is
 * not scheduled in the past: the result is then the one a fresh read gives. Nothing of such a file
 * is read or parsed; the file-system calls are one `realpath` per folder, one `lstat` per file and
 * one lookup per distinct media path, and the per-file work is synchronous, so thousands of files
 * cost no promise each.
 */
export async function memoFiles(files: readonly string[], options: ReadContentOptions & { memo: ReadingMemo }): Promise<(ContentFileResult | undefined)[]> {
  const shared = { ...options, lookups: options.lookups ?? new FileLookups() };
  const { root } = options.config;
  const realRoot = shared.lookups.realpath(root);
  // Each folder (project-relative, as in `files`) resolved once. A file in a folder whose real path
  // lies inside the project does too (a regular file's name cannot lead elsewhere); files of other
  // folders are left to a full read, which says why.
  const folderOf = (file: string) => file.slice(0, Math.max(0, file.lastIndexOf('/')));
  const insideFolders = new Map<string, string>();
  for (const folder of new Set(files.map(folderOf))) {
    const absolute = resolve(root, folder);
    let real: string;
    try {
      real = shared.lookups.realpath(absolute);
    } catch {
      continue;
    }
    if (isInside(realRoot, real)) insideFolders.set(folder, shortestPath(absolute));
  }
  const known: MemoFile[] = [];
  const requests: MediaRequest[] = [];
  // The requests of one `media:` value in one folder, made once: the memo may hand the same
  // value (the same object) to every post that names the same media.
  const requestsByValue = new Map<unknown, Map<string, readonly MediaRequest[]>>();
  const requestsOf = (media: unknown, file: string, folder: string): readonly MediaRequest[] => {
    if (typeof media !== 'object' || media === null) return mediaRequestsOf(media, file);
    let byFolder = requestsByValue.get(media);
    if (byFolder === undefined) requestsByValue.set(media, (byFolder = new Map()));
    let own = byFolder.get(folder);
    if (own === undefined) {
      own = mediaRequestsOf(media, file);
      byFolder.set(folder, own);
      requests.push(...own);
    }
    return own;
  };
  for (let index = 0; index < files.length; index++) {
    if (index % SLICE === SLICE - 1) await yieldToEventLoop();
    const file = files[index]!;
    const folder = folderOf(file);
    const lookupFolder = insideFolders.get(folder);
    if (lookupFolder === undefined) continue;
    // `file` comes from discovery: a normal path, so its name joins its (resolved) folder as it is.
    const reading = options.memo.reading(file, `${lookupFolder}${sep}${folder === '' ? file : file.slice(folder.length + 1)}`);
    // A snippet the post includes changed (or appeared, or vanished): the post reads differently.
    if (reading?.snippets !== undefined && !sameSnippets(reading.snippets, options.config, shared.lookups)) continue;
    if (reading !== undefined) known.push({ index, file, reading, requests: requestsOf(reading.media, file, folder) });
  }
  const found = await findMediaFiles(requests, mediaContextOf(shared));

  // The answers to one list of requests, looked up once: posts naming the same media share the list.
  const answersByRequests = new Map<readonly MediaRequest[], (FoundMedia | undefined)[]>();
  const answersOf = (own: readonly MediaRequest[]) => {
    let answers = answersByRequests.get(own);
    if (answers === undefined) answersByRequests.set(own, (answers = own.map(({ folder, ref }) => found.get(mediaLookupKey(folder, ref)))));
    return answers;
  };
  const results = new Array<ContentFileResult | undefined>(files.length);
  for (let at = 0; at < known.length; at++) {
    if (at % SLICE === SLICE - 1) await yieldToEventLoop();
    const { index, file, reading, requests: own } = known[at]!;
    results[index] = sameMedia(own, answersOf(own), reading.post.media) ? resultOf(file, reading, options) : undefined;
  }
  return results;
}

/**
 * Whether the media requests of a kept post lead to the very files its reading names (same path,
 * same bytes): its media part is then the one a fresh read makes. A media path with a problem
 * needs the whole post for its message.
 */
function sameMedia(requests: readonly MediaRequest[], answers: readonly (FoundMedia | undefined)[], media: readonly DesiredMedia[]): boolean {
  if (requests.length !== media.length) return false;
  for (let index = 0; index < media.length; index++) {
    const answer = answers[index];
    const kept = media[index]!;
    if (answer === undefined || !('media' in answer) || kept.ref !== requests[index]!.ref) return false;
    const { path, absolutePath, sha256, sizeBytes, contentType, kind } = answer.media;
    if (kept.path !== path || kept.absolutePath !== absolutePath || kept.sha256 !== sha256 || kept.sizeBytes !== sizeBytes || kept.contentType !== contentType || kept.kind !== kind) return false;
  }
  return true;
}

/**
 * The result a fresh read of the file gives, with this run's clock; undefined when the file must be
 * read in full instead: the post is scheduled in the past (the message needs the whole file).
 */
function resultOf(file: string, reading: MemoReading, clock: Pick<ReadContentOptions, 'now' | 'config' | 'acceptPastSchedule'>): ContentFileResult | undefined {
  const { post, schedule } = reading;
  const late = schedule === undefined ? undefined : checkSchedule(schedule, { key: post.key, file, now: clock.now, timezone: clock.config.timezone, ...(clock.acceptPastSchedule === undefined ? {} : { acceptPastSchedule: clock.acceptPastSchedule }) });
  const diagnostics = late === undefined ? reading.diagnostics : sortDiagnostics([...reading.diagnostics, late]);
  if (hasErrors(diagnostics)) return undefined;
  return {
    file,
    key: post.key,
    ...(reading.keyPosition === undefined ? {} : { keyPosition: reading.keyPosition }),
    posts: [post],
    ...(reading.snippets === undefined ? {} : { snippets: reading.snippets.map((use) => use.path) }),
    diagnostics,
  };
}

/**
 * `absolute` relative to the working folder when it lies below it, else as it is. The kernel
 * resolves a path one folder at a time; from the working folder each of thousands of `lstat`s
 * walks fewer of them.
 */
function shortestPath(absolute: string): string {
  let cwd: string;
  try {
    cwd = process.cwd();
  } catch {
    return absolute;
  }
  const below = cwd !== '' && absolute.length > cwd.length + 1 && absolute.startsWith(cwd) && (absolute[cwd.length] === sep || cwd.endsWith(sep));
  return below ? absolute.slice(cwd.endsWith(sep) ? cwd.length : cwd.length + 1) : absolute;
}
