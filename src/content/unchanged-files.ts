import { resolve, sep } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { isInside } from '../text/paths.js';
import { FileLookups } from './file-lookups.js';
import { findMediaFiles, mediaRequestsOf, type MediaRequest } from './media-paths.js';
import { foundMediaPart, unchangedPost, type EarlierReadings, type PostSummary } from './post-summary.js';
import { sameSnippets } from './snippet-files.js';
import { mediaContextOf, type ContentFileResult, type ReadContentOptions } from './read-file.js';

/**
 * Files handled between two turns of the event loop: the work is synchronous, and the listing of
 * remote posts that runs alongside needs a turn every millisecond or so to keep its requests going.
 */
const SLICE = 100;

interface KnownFile {
  index: number;
  file: string;
  kept: { digest: string; summary: PostSummary };
  requests: readonly MediaRequest[];
}

/**
 * The post files that are unchanged since a run read them in full, as UnchangedPosts, by index in
 * `files` (project-relative); undefined for every file that must be read. Unchanged: `earlier`
 * vouches for the file's bytes, its media paths resolve to the same files, and it is not scheduled
 * in the past. Nothing of such a file is read or parsed; the file-system calls are one `realpath`
 * per folder, what `earlier` needs per file and one lookup per distinct media path, and the
 * per-file work is synchronous, so thousands of unchanged files cost no promise each.
 */
export async function unchangedFiles(files: readonly string[], options: ReadContentOptions & { earlier: EarlierReadings }): Promise<(ContentFileResult | undefined)[]> {
  const shared = { ...options, lookups: options.lookups ?? new FileLookups() };
  const { root } = options.config;
  const realRoot = await shared.lookups.realpath(root);
  // Each folder (project-relative, as in `files`) resolved once. A file in a folder whose real path
  // lies inside the project does too (a regular file's name cannot lead elsewhere); files of other
  // folders are left to a full read, which says why.
  const folderOf = (file: string) => file.slice(0, Math.max(0, file.lastIndexOf('/')));
  const insideFolders = new Map<string, string>();
  await Promise.all(
    [...new Set(files.map(folderOf))].map(async (folder) => {
      const absolute = resolve(root, folder);
      const real = await shared.lookups.realpath(absolute).catch(() => undefined);
      if (real !== undefined && isInside(realRoot, real)) insideFolders.set(folder, shortestPath(absolute));
    }),
  );
  const known: KnownFile[] = [];
  const requests: MediaRequest[] = [];
  // The requests of one `media:` value in one folder, made once: the summaries may hand the same
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
    const kept = options.earlier.unchanged(file, `${lookupFolder}${sep}${folder === '' ? file : file.slice(folder.length + 1)}`);
    // A snippet the post includes changed (or appeared, or vanished): the post reads differently.
    if (kept?.summary.snippets !== undefined && !sameSnippets(kept.summary.snippets, options.config, shared.lookups)) continue;
    if (kept !== undefined) known.push({ index, file, kept, requests: requestsOf(kept.summary.media, file, folder) });
  }
  const found = await findMediaFiles(requests, mediaContextOf(shared));

  // Posts of one folder naming the same media share their requests, so each list is worked out once.
  const mediaParts = new Map<readonly MediaRequest[], string | undefined>();
  const mediaPartFor = (own: readonly MediaRequest[]) => {
    if (!mediaParts.has(own)) mediaParts.set(own, foundMediaPart(own, found));
    return mediaParts.get(own);
  };
  const results = new Array<ContentFileResult | undefined>(files.length);
  for (let at = 0; at < known.length; at++) {
    if (at % SLICE === SLICE - 1) await yieldToEventLoop();
    const { index, file, kept, requests: own } = known[at]!;
    const unchanged = unchangedPost(file, kept, mediaPartFor(own), options);
    if (unchanged === undefined) continue;
    const { summary } = kept;
    results[index] = {
      file,
      key: summary.key,
      ...(summary.keyPosition === undefined ? {} : { keyPosition: summary.keyPosition }),
      posts: [],
      unchanged: unchanged.post,
      ...(summary.snippets === undefined ? {} : { snippets: summary.snippets.map((use) => use.path) }),
      diagnostics: unchanged.diagnostics,
    };
  }
  return results;
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
