import type { Stats } from 'node:fs';
import type { Diagnostic } from '../diagnostics.js';
import type { ScheduleSource } from './normalize-post.js';
import type { SnippetUse } from './snippet-files.js';
import type { DesiredPost, SourcePosition } from './types.js';

/**
 * A post file's reading as the memo keeps it: a file that yields one post of its own time, without
 * errors. What the clock decides (a time in the past) is checked again on every run; the rest is
 * what a fresh read of the same bytes, media files and snippet files gives.
 */
export interface MemoReading {
  post: DesiredPost;
  keyPosition?: SourcePosition;
  /** The file's warnings but the clock's (its reading's, its templates' and house rules'). */
  diagnostics: Diagnostic[];
  schedule?: ScheduleSource;
  /** `media:` as written: the paths are resolved again on every run. */
  media: unknown;
  /** The snippet files its texts include, with their digests then: all must be the same again. */
  snippets?: SnippetUse[];
}

/** How a post file's bytes were read: the file's stats when opened, and when the read began (epoch ms). */
export interface BytesRead {
  stats: Stats;
  readAt: number;
}

/**
 * The one memo of post readings, keyed by file stamps (src/cache keeps it in `.postsync/cache`):
 * the reading of a post file whose bytes are known unchanged (what a media file holds is
 * `MediaMemo`'s, media-memo.ts). Content reading is the only user: what it returns is what a
 * fresh read returns, so nothing after it knows whether the memo was used.
 */
export interface ReadingMemo {
  /** The reading of `file`, when the file at `path` is known to hold the bytes it was made from without reading them. */
  reading(file: string, path: string): MemoReading | undefined;
  /** `file` was just read in full, as `read` says, and gave `reading`. */
  keep(file: string, read: BytesRead, reading: MemoReading): void;
}

/**
 * Names what a post was made from: the digest of its file's bytes and its media files' sha256
 * (64 bits of each tell an edited file apart). Equal fingerprints, equal posts.
 */
export function fingerprintOf(digest: string, media: readonly string[]): string {
  return `${digest}:${fingerprintMediaPart(media)}`;
}

/** The media part of a fingerprint: 64 bits of each media file's sha256, in post order. */
function fingerprintMediaPart(media: readonly string[]): string {
  return media.length === 0 ? '' : media.map((sha256) => sha256.slice(0, 16)).join(',');
}
