import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { MediaFacts, Prober, ProbeResult } from './types.js';

/** Where a media file's facts are kept between runs, by file stamp (src/cache keeps them in `.postsync/cache`). */
export interface KeptMediaFacts {
  /** The facts kept for the file at `realPath` as `stats` describe it now, or `workOut()`'s answer, kept for next time. */
  recall(realPath: string, stats: Stats, workOut: () => Promise<MediaFacts>): Promise<MediaFacts>;
}

interface Entry<P> {
  mtimeMs: number;
  size: number;
  facts?: Promise<MediaFacts>;
  probe?: Promise<P>;
}

/**
 * The one memo of what media files hold, by real path while the file's mtime and size are
 * unchanged: its facts (sha256, size, type: what content reading needs) and the prober's whole
 * answer (dimensions, duration, codecs: what the media rules and the calendar need). Each file is
 * hashed once and probed once however many posts, plans and calendars ask, and concurrent asks
 * share one read. With `kept` (the reading memo of src/cache), facts also carry over between runs
 * while the file's stamp is unchanged. Keep one per run, or one for the life of `watch`, which
 * `forget`s a file when it changes. A failed read is not kept: the next ask tries again.
 */
export class MediaMemo<P extends ProbeResult = ProbeResult> {
  readonly #entries = new Map<string, Entry<P>>();
  readonly #prober: Prober<P>;
  readonly #kept: KeptMediaFacts | undefined;

  constructor(prober: Prober<P>, kept?: KeptMediaFacts) {
    this.#prober = prober;
    this.#kept = kept;
  }

  /** The hash, size and type of the file at `realPath`, which `stats` describe now. */
  facts(realPath: string, stats: Stats): Promise<MediaFacts> {
    const entry = this.#entry(realPath, stats);
    if (entry.facts !== undefined) return entry.facts;
    const hashAndProbe = () =>
      Promise.all([sha256File(realPath), this.#probeOf(realPath, entry)]).then(([hash, probed]): MediaFacts => ({
        sha256: hash.sha256,
        sizeBytes: hash.sizeBytes,
        contentType: probed.contentType,
        kind: probed.kind,
        ...(probed.problem === undefined ? {} : { problem: probed.problem }),
      }));
    const facts = this.#kept === undefined ? hashAndProbe() : this.#kept.recall(realPath, stats, hashAndProbe);
    entry.facts = facts;
    this.#dropOnFailure(realPath, entry, facts);
    return facts;
  }

  /** The prober's answer for the file at `realPath`, probed at most once while its size and mtime are unchanged. */
  readonly probe = async (realPath: string): Promise<P> => {
    const stats = await stat(realPath);
    return this.#probeOf(realPath, this.#entry(realPath, stats));
  };

  /** Forgets one file (watch: it changed or was deleted) or, without a path, every file. */
  forget(realPath?: string): void {
    if (realPath === undefined) this.#entries.clear();
    else this.#entries.delete(realPath);
  }

  #entry(realPath: string, stats: Pick<Stats, 'mtimeMs' | 'size'>): Entry<P> {
    const known = this.#entries.get(realPath);
    if (known !== undefined && known.mtimeMs === stats.mtimeMs && known.size === stats.size) return known;
    const entry: Entry<P> = { mtimeMs: stats.mtimeMs, size: stats.size };
    this.#entries.set(realPath, entry);
    return entry;
  }

  #probeOf(realPath: string, entry: Entry<P>): Promise<P> {
    if (entry.probe !== undefined) return entry.probe;
    const probe = this.#prober(realPath);
    entry.probe = probe;
    this.#dropOnFailure(realPath, entry, probe);
    return probe;
  }

  #dropOnFailure(realPath: string, entry: Entry<P>, work: Promise<unknown>): void {
    work.catch(() => {
      if (this.#entries.get(realPath) === entry) this.#entries.delete(realPath);
    });
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
