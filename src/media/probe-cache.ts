import { stat } from 'node:fs/promises';
import type { DesiredMedia, DesiredPost } from '../content/types.js';
import type { ProbedMedia } from './media-rules.js';
import type { MediaProbe } from './probe.js';

export type ProbeMedia = (absolutePath: string) => Promise<MediaProbe>;

export interface ProbeCache {
  /** Probes `absolutePath`, or returns the earlier result while its size and mtime are unchanged. */
  probe: ProbeMedia;
  /** Forgets one file (watch mode: the file was deleted) or, without a path, every file. */
  forget(absolutePath?: string): void;
}

interface Entry {
  size: number;
  mtimeMs: number;
  result: Promise<MediaProbe>;
}

/** The prober, loaded on first use: it pulls in the image and file-type readers. */
const probeWithReaders: ProbeMedia = async (absolutePath) => (await import('./probe.js')).probeMedia(absolutePath);

/**
 * Memoizes probes by path, size and mtime, so that one run (or a watch session) probes each file
 * once however many posts use it. Concurrent calls for one file share a single probe. A failed
 * probe (unreadable file) is not kept.
 */
export function createProbeCache(options: { probe?: ProbeMedia } = {}): ProbeCache {
  const probeFile = options.probe ?? probeWithReaders;
  const entries = new Map<string, Entry>();
  return {
    async probe(absolutePath) {
      const { size, mtimeMs } = await stat(absolutePath);
      const cached = entries.get(absolutePath);
      if (cached && cached.size === size && cached.mtimeMs === mtimeMs) return cached.result;
      const result = probeFile(absolutePath);
      const entry = { size, mtimeMs, result };
      entries.set(absolutePath, entry);
      result.catch(() => {
        if (entries.get(absolutePath) === entry) entries.delete(absolutePath);
      });
      return result;
    },
    forget(absolutePath) {
      if (absolutePath === undefined) entries.clear();
      else entries.delete(absolutePath);
    },
  };
}

/**
 * The probes `checkMediaAgainstCapabilities` takes: each distinct file (by sha256) of `posts`
 * probed once, with its size. Pass a cache's `probe` to reuse the probes made while reading content.
 */
export async function probePostMedia(posts: readonly DesiredPost[], probe: ProbeMedia): Promise<Map<string, ProbedMedia>> {
  const files = new Map<string, DesiredMedia>();
  for (const media of posts.flatMap((post) => post.media)) {
    if (!files.has(media.sha256)) files.set(media.sha256, media);
  }
  const entries = await Promise.all(
    [...files].map(async ([sha256, media]): Promise<[string, ProbedMedia]> => [sha256, { ...(await probe(media.absolutePath)), sizeBytes: media.sizeBytes }]),
  );
  return new Map(entries);
}
