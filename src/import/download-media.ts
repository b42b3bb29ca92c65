import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { downloadProblem, fetchMediaSource } from '../api/media-source.js';
import type { Media } from '../api/types.js';
import { guardWrite, type WriteRoot } from '../write-guard/guard-write.js';

/** Parallel downloads: enough to overlap round trips, gentle on the service's storage. */
const DOWNLOAD_CONCURRENCY = 4;

/** A media file fetched from the service into a temporary file. */
export interface DownloadedMedia {
  media: Media;
  /** Absolute path of the temporary file (inside `tempDir`). */
  path: string;
  sha256: string;
  sizeBytes: number;
}

export type DownloadOutcome = { kind: 'downloaded'; file: DownloadedMedia } | { kind: 'failed'; reason: string };

/**
 * Downloads each media (once per id) into a fresh folder under `tempParent` (inside the project,
 * so placing a file is a rename-free hard link on the same file system), never through a link
 * (`root`: the project). Returns the outcome of each media by id and the folder, which the caller
 * removes (`removeDownloads`) when done.
 */
export async function downloadMedia(media: readonly Media[], options: WriteRoot & { tempParent: string }): Promise<{ outcomes: Map<string, DownloadOutcome>; tempDir: string }> {
  // Hidden, so no walk over the project's files (which skips hidden entries) ever sees a download.
  const tempDir = join(options.tempParent, `.postsync-import-${process.pid}-${randomBytes(4).toString('hex')}`);
  // A fresh name: once its parents are checked, every download in it is created anew ('wx').
  await guardWrite(tempDir, { root: options.root });
  await mkdir(tempDir, { recursive: true });
  const limit = pLimit(DOWNLOAD_CONCURRENCY);
  const distinct = [...new Map(media.map((item) => [item.id, item])).values()];
  const outcomes = new Map<string, DownloadOutcome>();
  await Promise.all(
    distinct.map((item, index) =>
      limit(async () => {
        const problem = downloadProblem(item);
        if (problem !== undefined) return outcomes.set(item.id, { kind: 'failed', reason: problem });
        const path = join(tempDir, String(index));
        try {
          const { sha256, sizeBytes } = await fetchMediaSource(item, { writeTo: path });
          outcomes.set(item.id, { kind: 'downloaded', file: { media: item, path, sha256, sizeBytes } });
        } catch (error) {
          await rm(path, { force: true });
          outcomes.set(item.id, { kind: 'failed', reason: `media ${item.id} could not be downloaded from ${new URL(item.url).origin}: ${(error as Error).message}` });
        }
      }),
    ),
  );
  return { outcomes, tempDir };
}

export async function removeDownloads(tempDir: string): Promise<void> {
  await rm(tempDir, { recursive: true, force: true });
}
