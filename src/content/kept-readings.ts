import { dirname, resolve } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { FileLookups } from './file-lookups.js';
import type { PostFileReading } from './interpret-file.js';
import { findMediaFiles, mediaRequestsOf, type MediaRequest } from './media-paths.js';
import { postFileStatsIn } from './post-bytes.js';
import { mediaContextOf, reuseReadingWith, type ContentFileResult, type ReadContentOptions, type ReadingStore } from './read-file.js';

/**
 * The results of the post files whose kept reading still holds, by index in `files`
 * (project-relative); undefined for every file that must be read. A reading holds when the file's
 * stamp is the settled one kept with it and its media paths still resolve cleanly: the same rule
 * as `readContentFile`, applied to the whole folder at once. The file system calls are one
 * `realpath` per folder, one `lstat` per file and one lookup per distinct media path, and the
 * per-file work is synchronous, so a project of thousands of unchanged files costs no promise per
 * file and keeps the event loop free for the listing that runs alongside.
 */
/**
 * Files handled between two turns of the event loop: the work is synchronous, and the listing of
 * remote posts that runs alongside needs a turn every millisecond or so to keep its requests going.
 */
const SLICE = 100;

export async function reuseKeptReadings(files: readonly string[], options: ReadContentOptions & { readings: ReadingStore }): Promise<(ContentFileResult | undefined)[]> {
  const { root } = options.config;
  const lookups = options.lookups ?? new FileLookups();
  const shared = { ...options, lookups };
  const realRoot = await lookups.realpath(root);
  const folders = [...new Set(files.map((file) => dirname(resolve(root, file))))];
  const realFolders = new Map(await Promise.all(folders.map(async (folder) => [folder, await lookups.realpath(folder).catch(() => undefined)] as const)));

  const kept: { index: number; file: string; reading: PostFileReading; digest: string }[] = [];
  const requests: MediaRequest[] = [];
  for (let index = 0; index < files.length; index++) {
    if (index % SLICE === SLICE - 1) await yieldToEventLoop();
    const file = files[index]!;
    const absolute = resolve(root, file);
    const realFolder = realFolders.get(dirname(absolute));
    const stats = realFolder === undefined ? undefined : postFileStatsIn(absolute, { realRoot, realFolder });
    const found = stats === undefined ? undefined : options.readings.byStamp(file, stats);
    if (found?.reading.text === undefined) continue;
    kept.push({ index, file, ...found });
    requests.push(...mediaRequestsOf(found.reading.text.media, file));
  }

  const found = await findMediaFiles(requests, mediaContextOf(shared));
  const results = new Array<ContentFileResult | undefined>(files.length);
  for (let at = 0; at < kept.length; at++) {
    if (at % SLICE === SLICE - 1) await yieldToEventLoop();
    const { index, file, ...reading } = kept[at]!;
    results[index] = reuseReadingWith(file, reading, found, shared);
  }
  return results;
}
