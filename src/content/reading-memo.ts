import type { Stats } from 'node:fs';
import type { Diagnostic } from '../diagnostics.js';
import type { MediaFacts } from './media-cache.js';
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
 * The one memo of content reading, keyed by file stamps (src/cache keeps it in `.postsync/cache`):
 * the reading of a post file whose bytes are known unchanged, and what a media file holds. Content
 * reading is the only user: what it returns is what a fresh read returns, so nothing after it
 * knows whether the memo was used.
 */
export interface ReadingMemo {
  /** The reading of `file`, when the file at `path` is known to hold the bytes it was made from without reading them. */
  reading(file: string, path: string): MemoReading | undefined;
  /** `file` was just read in full, as `read` says, and gave `reading`. */
  keep(file: string, read: BytesRead, reading: MemoReading): void;
  /** What the media file at `realPath` (as `stats` describe it now) holds, as found out before, or `workOut()`'s answer, kept. */
  mediaFacts(realPath: string, stats: Stats, workOut: () => Promise<MediaFacts>): Promise<MediaFacts>;
}

/** A post's checks against its accounts' rules, as a check of that post alone gives them: its account checks, then its media checks. */
export interface PostChecks {
  accounts: Diagnostic[];
  media: Diagnostic[];
}

/**
 * The check results kept with a reading, for the step that checks posts against their accounts'
 * rules (the checks need the remote, so they run after content reading). A result is handed out
 * only for the very post object the memo's reading holds (the post was taken from the memo or
 * just read and kept) and only when it was made against rules of the same digest: it is then
 * exactly what checking that post again gives.
 */
export interface KeptChecks {
  /** The checks of `post` made against rules of digest `rules`, when kept with the reading `post` is. */
  checks(post: DesiredPost, rules: string): PostChecks | undefined;
  /** `post`, the post of its file's kept reading, was just checked against rules of digest `rules`. */
  keepChecks(post: DesiredPost, rules: string, checks: PostChecks): void;
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
