import { MediaMemo, type KeptMediaFacts } from '../content/media-memo.js';
import type { DesiredMedia, DesiredPost, Prober } from '../content/types.js';
import type { ProbedMedia } from './media-rules.js';
import type { MediaProbe } from './probe.js';

/** The prober, loaded on first use: it pulls in the image and file-type readers. */
const probeWithReaders: Prober<MediaProbe> = async (absolutePath) => (await import('./probe.js')).probeMedia(absolutePath);

/**
 * The memo of media facts a run (or a watch session) keeps, probing with the real prober; `kept`:
 * the facts kept between runs (`RunCache.mediaFacts`).
 */
export function createMediaMemo(options: { kept?: KeptMediaFacts; prober?: Prober<MediaProbe> } = {}): MediaMemo<MediaProbe> {
  return new MediaMemo(options.prober ?? probeWithReaders, options.kept);
}

/**
 * The probes `checkMediaAgainstCapabilities` takes: each distinct file (by sha256) of `posts`
 * probed once, with its size. Pass a `MediaMemo`'s `probe` to reuse the probes made while reading content.
 */
export async function probePostMedia(posts: readonly DesiredPost[], probe: Prober<MediaProbe>): Promise<Map<string, ProbedMedia>> {
  const files = new Map<string, DesiredMedia>();
  for (const media of posts.flatMap((post) => post.media)) {
    if (!files.has(media.sha256)) files.set(media.sha256, media);
  }
  const entries = await Promise.all(
    [...files].map(async ([sha256, media]): Promise<[string, ProbedMedia]> => [sha256, { ...(await probe(media.absolutePath)), sizeBytes: media.sizeBytes }]),
  );
  return new Map(entries);
}
