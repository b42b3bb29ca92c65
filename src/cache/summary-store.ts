import type { PostFacts, PostSummary, SummaryStore } from '../content/post-summary.js';
import type { CacheSection } from './cache-section.js';
import { sameStamp, settledStamp, type FileStamp } from './file-stamps.js';

/** One post file's entry in the `posts` section. */
export interface SummaryEntry {
  /** Digest of the file's bytes. */
  digest: string;
  /** The file's stamp when its bytes were read, once settled (see StampedFacts). */
  stamp?: FileStamp;
  summary: PostSummary;
  /** Check results for the post of these bytes and media (`summary.mediaHashes`). */
  checks?: PostFacts['checks'];
}

/** The SummaryStore backed by a `posts` cache section (keyed by project-relative file). */
export function summaryStore(section: CacheSection<SummaryEntry>): SummaryStore {
  const matching = (file: string, fingerprint: string): SummaryEntry | undefined => {
    const entry = section.get(file);
    return entry !== undefined && fingerprint === `${entry.digest}:${entry.summary.mediaHashes}` ? entry : undefined;
  };
  return {
    byStamp: (file, stats) => {
      const entry = section.get(file);
      return entry?.stamp !== undefined && sameStamp(entry.stamp, stats) ? { digest: entry.digest, summary: entry.summary } : undefined;
    },
    set: (file, digest, summary, read) => {
      const stamp = read === undefined ? undefined : settledStamp(read.stats, read.readAt);
      const earlier = section.get(file);
      const same = earlier?.digest === digest && earlier.summary.mediaHashes === summary.mediaHashes;
      if (same && (stamp === undefined ? earlier.stamp === undefined : earlier.stamp !== undefined && sameStamp(earlier.stamp, stamp))) return;
      const checks = same ? earlier.checks : undefined;
      section.set(file, { digest, ...(stamp === undefined ? {} : { stamp }), summary, ...(checks === undefined ? {} : { checks }) });
    },
    facts: (file, fingerprint) => {
      const entry = matching(file, fingerprint);
      return entry === undefined ? undefined : { shapeHash: entry.summary.shapeHash, ...(entry.checks === undefined ? {} : { checks: entry.checks }) };
    },
    addFacts: (file, fingerprint, facts) => {
      const entry = matching(file, fingerprint);
      // Only check results are kept apart; a shape hash comes with every summary.
      if (entry !== undefined && facts.checks !== undefined) section.set(file, { ...entry, checks: facts.checks });
    },
  };
}
