import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { isLoopbackHost } from './base-url.js';
import { RemoteLimitError } from './errors.js';
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

const MiB = 1024 * 1024;

/**
 * The most a download of a media brings when the service declares no `sizeBytes` (the spec's
 * Media has none): well above what the platforms accept of an image or a video, so only a
 * source that does not end is cut.
 */
const UNDECLARED_MAX_BYTES: Readonly<Record<string, number>> = { image: 64 * MiB, video: 4096 * MiB };

/**
 * The most bytes a download of `media` may bring, and why: its declared `sizeBytes` (a field
 * some services add), else UNDECLARED_MAX_BYTES for its kind (a video's for a kind not known);
 * `atMost` (what the caller can use at all) lowers it.
 */
function downloadBound(media: Media, atMost: number | undefined): { bytes: number; what: string } {
  // Not a field of the spec's Media: read through the extra fields a service may send.
  const declared = media['sizeBytes'];
  const undeclared = UNDECLARED_MAX_BYTES[media.kind] ?? UNDECLARED_MAX_BYTES.video!;
  const own =
    typeof declared === 'number' && Number.isSafeInteger(declared) && declared >= 0
      ? { bytes: declared, what: `its declared size of ${declared} bytes` }
      : { bytes: undeclared, what: `${undeclared / MiB} MiB, the most postsync downloads of a ${media.kind} without a declared size` };
  return atMost !== undefined && atMost < own.bytes ? { bytes: atMost, what: `${atMost} bytes, the most it can be to be of use here` } : own;
}

/** The sha256 and size of a media original, as streamed. */
export interface MediaSourceDigest {
  sha256: string;
  sizeBytes: number;
}

/**
 * Streams the original of `media` (checked with `downloadProblem` first) through sha256,
 * following redirects that stay https:// (or loopback). With `writeTo`, the bytes also go to that
 * new file (never an existing one); without it they are only hashed, so memory stays flat
 * whatever the size. Throws on any status but 200, and on a redirect elsewhere; a download past
 * its bound (`downloadBound`, lowered by `atMostBytes`) stops there with a RemoteLimitError.
 */
export async function fetchMediaSource(media: Media, options: { writeTo?: string; atMostBytes?: number } = {}): Promise<MediaSourceDigest> {
  const bound = downloadBound(media, options.atMostBytes);
  const tooLarge = () => new RemoteLimitError(`media ${media.id} is larger than ${bound.what}; postsync stopped downloading it`);
  let location = media.url;
  // Loaded here: undici's index (all of its modules) is needed only when an original is fetched;
  // every other request goes through the parts undici-parts.ts loads.
  const { request } = await import('undici');
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
    if (Number(response.headers['content-length']) > bound.bytes) {
      response.body.destroy();
      throw tooLarge();
    }
    const hash = createHash('sha256');
    let sizeBytes = 0;
    async function* digested(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      for await (const chunk of chunks) {
        sizeBytes += chunk.length;
        if (sizeBytes > bound.bytes) throw tooLarge();
        hash.update(chunk);
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
