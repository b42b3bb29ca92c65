import type { Diagnostic } from '../diagnostics.js';
import type { Stats } from 'node:fs';
import type { MediaFacts } from '../content/media-cache.js';
import type { BytesRead, EarlierReadings, PostSummary } from '../content/post-summary.js';
import type { CacheSection } from './cache-section.js';
import { sameStamp, settledStamp, statsForStamp, type FileStamp, type StampedFacts } from './file-stamps.js';

/** The account and media checks' diagnostics for one post, under the rules named `rules` (a digest of the capabilities). */
export interface PostChecks {
  rules: string;
  accounts: Diagnostic[];
  media: Diagnostic[];
}

/** Check results kept by post: by its file and fingerprint (equal fingerprints, equal posts). */
export interface CheckMemo {
  checksOf(file: string, fingerprint: string): PostChecks | undefined;
  keepChecks(file: string, fingerprint: string, checks: PostChecks): void;
}

/**
 * One post file's entry in `.postsync/cache/posts.json` (kept there as columns: post-columns.ts).
 * Invariant: `summary` and `checks` are those of the post made from bytes with `digest` and the
 * media `summary.mediaHashes` names, that is of the post whose fingerprint is `digest:mediaHashes`.
 */
export interface PostEntry {
  /** Digest of the file's bytes when it was read in full. */
  digest: string;
  /** The file's stamp when its bytes were read, once settled; null when it changed too recently to vouch for them. */
  stamp: FileStamp | null;
  summary: PostSummary;
  /** Check results for that post, once checked. */
  checks: PostChecks | null;
}

/**
 * What earlier runs found out about post files, by project-relative file: the summary of each post
 * read in full (content reading asks for it instead of reading an unchanged file) and its check
 * results; and what each media file holds, by real path. Backed by cache sections, or by memory
 * alone (`PostCache.inMemory`, for a session that keeps no cache but checks the same posts again
 * and again).
 */
export class PostCache implements EarlierReadings, CheckMemo {
  readonly #section: Pick<CacheSection<PostEntry>, 'get' | 'set'>;
  readonly #media: StampedFacts<MediaFacts> | null;

  constructor(section: Pick<CacheSection<PostEntry>, 'get' | 'set'>, media: StampedFacts<MediaFacts> | null) {
    this.#section = section;
    this.#media = media;
  }

  static inMemory(): PostCache {
    return new PostCache(new Map<string, PostEntry>(), null);
  }

  mediaFacts(realPath: string, stats: Stats, workOut: () => Promise<MediaFacts>): Promise<MediaFacts> {
    return this.#media === null ? workOut() : this.#media.recall(realPath, stats, workOut);
  }

  unchanged(file: string, path: string): { digest: string; summary: PostSummary } | undefined {
    const entry = this.#section.get(file);
    if (entry?.stamp == null) return undefined;
    // Like git's index: an unchanged stamp (one `lstat`) vouches for unchanged bytes.
    const stats = statsForStamp(path);
    return stats !== undefined && sameStamp(entry.stamp, stats) ? { digest: entry.digest, summary: entry.summary } : undefined;
  }

  remember(file: string, read: BytesRead, summary: PostSummary): void {
    const stamp = settledStamp(read.stats, read.readAt) ?? null;
    const earlier = this.#section.get(file);
    const samePost = earlier !== undefined && earlier.digest === read.digest && earlier.summary.mediaHashes === summary.mediaHashes;
    const sameStampAsKept = stamp === null ? earlier?.stamp === null : earlier?.stamp != null && sameStamp(earlier.stamp, stamp);
    if (samePost && sameStampAsKept) return;
    this.#section.set(file, { digest: read.digest, stamp, summary, checks: samePost ? earlier.checks : null });
  }

  checksOf(file: string, fingerprint: string): PostChecks | undefined {
    return this.#entryOf(file, fingerprint)?.checks ?? undefined;
  }

  keepChecks(file: string, fingerprint: string, checks: PostChecks): void {
    const entry = this.#entryOf(file, fingerprint);
    if (entry !== undefined) this.#section.set(file, { ...entry, checks });
  }

  /** The entry of `file` when it is about the post with this fingerprint. */
  #entryOf(file: string, fingerprint: string): PostEntry | undefined {
    const entry = this.#section.get(file);
    if (entry === undefined) return undefined;
    const { digest } = entry;
    const { mediaHashes } = entry.summary;
    const matches = fingerprint.length === digest.length + 1 + mediaHashes.length && fingerprint.startsWith(digest) && fingerprint[digest.length] === ':' && fingerprint.endsWith(mediaHashes);
    return matches ? entry : undefined;
  }
}
