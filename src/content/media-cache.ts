import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { ReadingMemo } from './reading-memo.js';
import type { MediaFacts, MediaProbe } from './types.js';

interface Entry {
  mtimeMs: number;
  size: number;
  facts: Promise<MediaFacts>;
}

/**
 * Hashes and probes each distinct file once: entries are keyed by real path and reused while the
 * file's mtime and size are unchanged. Keep one per run, or one for the life of `watch`. With
 * the reading memo (src/cache), facts also carry over between runs while the file's stamp is unchanged.
 */
export class MediaCache {
  readonly #entries = new Map<string, Entry>();

  describe(realPath: string, stats: Stats, probe: MediaProbe, memo?: Pick<ReadingMemo, 'mediaFacts'>): Promise<MediaFacts> {
    const cached = this.#entries.get(realPath);
    if (cached !== undefined && cached.mtimeMs === stats.mtimeMs && cached.size === stats.size) return cached.facts;
    const hashAndProbe = () =>
      Promise.all([sha256File(realPath), probe(realPath)]).then(([hash, probed]): MediaFacts => ({
        sha256: hash.sha256,
        sizeBytes: hash.sizeBytes,
        contentType: probed.contentType,
        kind: probed.kind,
        ...(probed.problem === undefined ? {} : { problem: probed.problem }),
      }));
    const facts = memo === undefined ? hashAndProbe() : memo.mediaFacts(realPath, stats, hashAndProbe);
    const entry: Entry = { mtimeMs: stats.mtimeMs, size: stats.size, facts };
    this.#entries.set(realPath, entry);
    // A failed read must not stick: the next run tries again.
    facts.catch(() => {
      if (this.#entries.get(realPath) === entry) this.#entries.delete(realPath);
    });
    return facts;
  }

  /** Drops one file (watch: it was deleted) or, without a path, everything. */
  forget(realPath?: string): void {
    if (realPath === undefined) this.#entries.clear();
    else this.#entries.delete(realPath);
  }
}

/** Streams the file through sha256, so memory stays flat whatever the file size. */
export async function sha256File(path: string): Promise<{ sha256: string; sizeBytes: number }> {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  await pipeline(createReadStream(path), async (chunks: AsyncIterable<Buffer>) => {
    for await (const chunk of chunks) {
      sizeBytes += chunk.length;
      hash.update(chunk);
    }
  });
  return { sha256: hash.digest('hex'), sizeBytes };
}
