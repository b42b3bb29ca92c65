import { resolve, sep } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { StampSource } from '../cache/file-stamps.js';
import { FileLookups } from './file-lookups.js';
import { findMediaFiles, mediaRequestsOf, type FoundMediaFiles, type MediaRequest } from './media-paths.js';
import { isInside } from '../text/paths.js';
import { regularFileStats } from './post-bytes.js';
import { foundMediaPart, unchangedPost, type SummaryStore } from './post-summary.js';
import { mediaContextOf, reuseReadingWith, type ContentFileResult, type ReadContentOptions, type ReadingStore } from './read-file.js';

/**
 * Files handled between two turns of the event loop: the work is synchronous, and the listing of
 * remote posts that runs alongside needs a turn every millisecond or so to keep its requests going.
 */
const SLICE = 100;

/**
 * The results of the post files whose kept reading still holds, by index in `files`
 * (project-relative); undefined for every file that must be read. A reading holds when the file's
 * stamp is the settled one kept with it and its media paths still resolve cleanly: the same rule
 * as `readContentFile`, applied to the whole folder at once.
 */
export async function reuseKeptReadings(files: readonly string[], options: ReadContentOptions & { readings: ReadingStore }): Promise<(ContentFileResult | undefined)[]> {
  const shared = { ...options, lookups: options.lookups ?? new FileLookups() };
  const { kept, found } = await keptByStamp(files, shared, {
    lookup: (file, stats) => options.readings.byStamp(file, stats),
    mediaOf: (entry) => entry.reading.text?.media,
  });
  return assembleEach(files.length, kept, ({ file, entry }) => (entry.reading.text === undefined ? undefined : reuseReadingWith(file, entry, found, shared)));
}

/**
 * The post files that are unchanged since a run read them in full, as UnchangedPosts, by index in
 * `files`; undefined for every file that must be read. Unchanged: the file's stamp is the settled
 * one kept with its summary, its media paths resolve to the same files, and it is not scheduled
 * in the past. Nothing of such a file is read or parsed.
 */
export async function unchangedByStamp(files: readonly string[], options: ReadContentOptions & { summaries: SummaryStore }): Promise<(ContentFileResult | undefined)[]> {
  const shared = { ...options, lookups: options.lookups ?? new FileLookups() };
  const { kept, found } = await keptByStamp(files, shared, {
    lookup: (file, stats) => options.summaries.byStamp(file, stats),
    mediaOf: (entry) => entry.summary.media,
  });
  // Posts of one folder naming the same media share their requests (see keptByStamp), so each list is worked out once.
  const mediaParts = new Map<readonly MediaRequest[], string | undefined>();
  const mediaPartFor = (requests: readonly MediaRequest[]) => {
    if (!mediaParts.has(requests)) mediaParts.set(requests, foundMediaPart(requests, found));
    return mediaParts.get(requests);
  };
  return assembleEach(files.length, kept, ({ file, entry, requests }) => {
    const unchanged = unchangedPost(file, entry, mediaPartFor(requests), options);
    if (unchanged === undefined) return undefined;
    const { summary } = entry;
    return { file, key: summary.key, ...(summary.keyPosition === undefined ? {} : { keyPosition: summary.keyPosition }), post: null, unchanged: unchanged.post, diagnostics: unchanged.diagnostics };
  });
}

/**
 * The files whose kept entry (by `lookup`) matches their stamp, and the media files those entries
 * name, found. The file system calls are one `realpath` per folder, one `lstat` per file and one
 * lookup per distinct media path; the per-file work is synchronous, so thousands of unchanged files
 * cost no promise per file.
 */
async function keptByStamp<T>(
  files: readonly string[],
  options: ReadContentOptions & { lookups: FileLookups },
  store: { lookup: (file: string, stats: StampSource) => T | undefined; mediaOf: (entry: T) => unknown },
): Promise<{ kept: { index: number; file: string; entry: T; requests: readonly MediaRequest[] }[]; found: FoundMediaFiles }> {
  const { root } = options.config;
  const { lookups } = options;
  const realRoot = await lookups.realpath(root);
  // Each folder (project-relative, as in `files`) resolved once. A file in a folder whose real path
  // lies inside the project does too (a regular file's name cannot lead elsewhere); files of other
  // folders are left to a full read, which says why.
  const folderOf = (file: string) => file.slice(0, Math.max(0, file.lastIndexOf('/')));
  const insideFolders = new Map<string, string>();
  await Promise.all(
    [...new Set(files.map(folderOf))].map(async (folder) => {
      const absolute = resolve(root, folder);
      const real = await lookups.realpath(absolute).catch(() => undefined);
      if (real !== undefined && isInside(realRoot, real)) insideFolders.set(folder, shortestPath(absolute));
    }),
  );
  const kept: { index: number; file: string; entry: T; requests: readonly MediaRequest[] }[] = [];
  const requests: MediaRequest[] = [];
  // The requests of one `media:` value in one folder, made once: a summary store may hand the same
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
    // `file` comes from discovery: a normal path, so its name joins its (resolved) folder as it is.
    const stats = lookupFolder === undefined ? undefined : regularFileStats(`${lookupFolder}${sep}${folder === '' ? file : file.slice(folder.length + 1)}`);
    const entry = stats === undefined ? undefined : store.lookup(file, stats);
    if (entry === undefined) continue;
    kept.push({ index, file, entry, requests: requestsOf(store.mediaOf(entry), file, folder) });
  }
  return { kept, found: await findMediaFiles(requests, mediaContextOf(options)) };
}

/** `assemble` on each kept file, yielding as the stamp pass does; results by index in the files read. */
async function assembleEach<K extends { index: number }>(count: number, kept: readonly K[], assemble: (kept: K) => ContentFileResult | undefined): Promise<(ContentFileResult | undefined)[]> {
  const results = new Array<ContentFileResult | undefined>(count);
  for (let at = 0; at < kept.length; at++) {
    if (at % SLICE === SLICE - 1) await yieldToEventLoop();
    results[kept[at]!.index] = assemble(kept[at]!);
  }
  return results;
}

/**
 * `absolute` relative to the working folder when it lies below it, else as it is. The kernel
 * resolves a path one folder at a time; from the working folder each of thousands of `lstat`s
 * walks fewer of them (10,000 files: ~20% less time).
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
