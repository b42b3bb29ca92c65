import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import pLimit from 'p-limit';
import { request } from 'undici';
import { isLoopbackHost } from '../api/base-url.js';
import type { Media } from '../api/types.js';

/** Parallel downloads: enough to overlap round trips, gentle on the service's storage. */
const DOWNLOAD_CONCURRENCY = 4;
/** Redirects a storage URL may take (CDNs redirect to signed locations). */
const MAX_REDIRECTS = 5;

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
 * Why a remote media cannot be downloaded at all, or undefined when its `url` may be fetched:
 * the service must offer the original (`sourceAvailable`) at an https:// URL (plain http:// only
 * on loopback, the emulator). The API key is never sent there: storage URLs need none.
 */
export function downloadProblem(media: Media): string | undefined {
  if (media.sourceAvailable !== true) return `the service does not offer the original of media ${media.id} for download (sourceAvailable is not true)`;
  if (typeof media.url !== 'string' || media.url === '') return `the service gives no url for media ${media.id}`;
  const problem = urlProblem(media.url);
  return problem === undefined ? undefined : `the url of media ${media.id} ${problem}`;
}

function urlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a valid URL';
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return undefined;
  return `is not https:// (${url.protocol}//${url.host})`;
}

async function fetchTo(url: string, path: string): Promise<{ sha256: string; sizeBytes: number }> {
  let location = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await request(location, { method: 'GET', headers: { accept: '*/*' } });
    if ([301, 302, 303, 307, 308].includes(response.statusCode) && typeof response.headers.location === 'string') {
      await response.body.dump();
      location = new URL(response.headers.location, location).href;
      const problem = urlProblem(location);
      if (problem !== undefined) throw new Error(`redirected to a URL that ${problem}`);
      continue;
    }
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw new Error(`HTTP ${response.statusCode}`);
    }
    const hash = createHash('sha256');
    let sizeBytes = 0;
    response.body.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      sizeBytes += chunk.length;
    });
    await pipeline(response.body, createWriteStream(path, { flags: 'wx' }));
    return { sha256: hash.digest('hex'), sizeBytes };
  }
  throw new Error(`more than ${MAX_REDIRECTS} redirects`);
}

/**
 * Downloads each media (once per id) into a fresh folder under `tempParent` (inside the project,
 * so placing a file is a rename-free hard link on the same file system). Returns the outcome of
 * each media by id and the folder, which the caller removes (`removeDownloads`) when done.
 */
export async function downloadMedia(media: readonly Media[], options: { tempParent: string }): Promise<{ outcomes: Map<string, DownloadOutcome>; tempDir: string }> {
  // Hidden, so no walk over the project's files (which skips hidden entries) ever sees a download.
  const tempDir = join(options.tempParent, `.postsync-import-${process.pid}-${randomBytes(4).toString('hex')}`);
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
          const { sha256, sizeBytes } = await fetchTo(item.url, path);
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
