import { lstatSync, type Stats } from 'node:fs';
import type { CacheSection } from './cache-section.js';

/**
 * How far in the past a file's last change must lie, when it is read, for a fact about it to be
 * kept: a change within the file system's timestamp granularity (2 s on FAT, a few ms elsewhere)
 * of the read could leave size and times unchanged (git's "racily clean" entries).
 */
export const SETTLED_MS = 2000;

/** Identity of a file's bytes without reading them: same path and all of these, same bytes. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

export interface StampedEntry<T> {
  stamp: FileStamp;
  value: T;
}

export type StampSource = Pick<Stats, 'size' | 'mtimeMs' | 'ctimeMs' | 'ino'>;

/** Facts about files (a media file's hash, a probe), kept by path while the file's stamp is unchanged. */
export class StampedFacts<T> {
  readonly #section: CacheSection<StampedEntry<T>>;

  constructor(section: CacheSection<StampedEntry<T>>) {
    this.#section = section;
  }

  get(path: string, stats: StampSource): T | undefined {
    const entry = this.#section.get(path);
    if (entry === undefined) return undefined;
    if (sameStamp(entry.stamp, stats)) return entry.value;
    this.#section.delete(path);
    return undefined;
  }

  /** The kept fact about the file, or `workOut()`'s answer, kept for next time. */
  recall(path: string, stats: StampSource, workOut: () => Promise<T>): Promise<T> {
    const kept = this.get(path, stats);
    if (kept !== undefined) return Promise.resolve(kept);
    const readAt = Date.now();
    return workOut().then((value) => {
      this.set(path, stats, value, readAt);
      return value;
    });
  }

  /** Keeps `value`, worked out from the file as `stats` describe it starting at `readAt` (epoch ms), unless the file changed too recently to be sure. */
  set(path: string, stats: StampSource, value: T, readAt: number): void {
    const stamp = settledStamp(stats, readAt);
    if (stamp !== undefined) this.#section.set(path, { stamp, value });
  }
}

/** The stamp of a file read at `readAt`, or undefined when it changed too recently to vouch for the bytes read. */
export function settledStamp(stats: StampSource, readAt: number): FileStamp | undefined {
  if (stats.mtimeMs > readAt - SETTLED_MS) return undefined;
  return { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
}

export function sameStamp(stamp: FileStamp, stats: StampSource): boolean {
  return stamp.size === stats.size && stamp.mtimeMs === stats.mtimeMs && stamp.ctimeMs === stats.ctimeMs && stamp.ino === stats.ino;
}

/** The `lstat` of a regular file (not a symlink, not missing), or undefined: a stamp is only ever kept for one. */
export function statsForStamp(path: string): Stats | undefined {
  let stats: Stats | undefined;
  try {
    stats = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  return stats?.isFile() === true ? stats : undefined;
}
