import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { request } from 'undici';
import { isLoopbackHost } from './base-url.js';
import type { Media } from './types.js';

/** Redirects a storage URL may take (CDNs redirect to signed locations). */
const MAX_REDIRECTS = 5;

/**
 * Why a remote media's original cannot be fetched at all, or undefined when its `url` may be:
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

/** The sha256 and size of a media original, as streamed. */
export interface MediaSourceDigest {
  sha256: string;
  sizeBytes: number;
}

/**
 * Streams the original at `url` (checked with `downloadProblem` first) through sha256, following
 * redirects that stay https:// (or loopback). With `writeTo`, the bytes also go to that new file
 * (never an existing one); without it they are only hashed, so memory stays flat whatever the size.
 * Throws on any status but 200, and on a redirect elsewhere.
 */
export async function fetchMediaSource(url: string, options: { writeTo?: string } = {}): Promise<MediaSourceDigest> {
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
    async function* digested(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      for await (const chunk of chunks) {
        hash.update(chunk);
        sizeBytes += chunk.length;
        yield chunk;
      }
    }
    if (options.writeTo === undefined) {
      await pipeline(response.body, digested, async (chunks: AsyncIterable<Buffer>) => {
        for await (const _ of chunks) {
          // Hashed on the way through; nothing is kept.
        }
      });
    } else {
      await pipeline(response.body, digested, createWriteStream(options.writeTo, { flags: 'wx' }));
    }
    return { sha256: hash.digest('hex'), sizeBytes };
  }
  throw new Error(`more than ${MAX_REDIRECTS} redirects`);
}
