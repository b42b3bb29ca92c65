import { isFingerprintOf, type PostFacts, type PostSummary, type SummaryStore } from '../content/post-summary.js';
import type { CacheSection } from './cache-section.js';
import { settledStamp, type FileStamp, type StampSource } from './file-stamps.js';

type Checks = NonNullable<PostFacts['checks']>;

/**
 * One post file's entry in the `posts` section, as a tuple: every run loads all of them, and a
 * JSON array parses several times faster than an object with named fields (10,000 posts: ~10 ms
 * instead of ~30 ms). The fields a post seldom has (`keyPosition`, warnings, `schedule`) share
 * one object, or 0.
 */
export type SummaryEntry = [
  digest: string,
  /** The file's stamp when its bytes were read, once settled (see StampedFacts); 0 otherwise. */
  stamp: [size: number, mtimeMs: number, ctimeMs: number, ino: number] | 0,
  shapeHash: string,
  mediaHashes: string,
  key: string,
  accountIds: string[],
  media: unknown,
  seldom: Partial<Pick<PostSummary, 'keyPosition' | 'diagnostics' | 'schedule'>> | 0,
  /** Check results for the post of these bytes and media; 0 when not checked yet. */
  checks: [rules: string, accounts: Checks['accounts'], media: Checks['media']] | 0,
];

/** The SummaryStore backed by a `posts` cache section (keyed by project-relative file). */
export function summaryStore(section: CacheSection<SummaryEntry>): SummaryStore {
  // Each run asks for a post's facts more than once (which posts to check, then their results).
  const decoded = new WeakMap<SummaryEntry, PostFacts>();
  const matching = (file: string, fingerprint: string): SummaryEntry | undefined => {
    const entry = section.get(file);
    return entry !== undefined && isFingerprintOf(fingerprint, entry[0], entry[3]) ? entry : undefined;
  };
  return {
    byStamp: (file, stats) => {
      const entry = section.get(file);
      return entry !== undefined && entry[1] !== 0 && stampMatches(entry[1], stats) ? { digest: entry[0], summary: summaryOf(entry) } : undefined;
    },
    set: (file, digest, summary, read) => {
      const stamp = read === undefined ? undefined : settledStamp(read.stats, read.readAt);
      const earlier = section.get(file);
      const same = earlier !== undefined && earlier[0] === digest && earlier[3] === summary.mediaHashes;
      if (same && (stamp === undefined ? earlier[1] === 0 : earlier[1] !== 0 && stampMatches(earlier[1], stamp))) return;
      section.set(file, entryOf(digest, stamp, summary, same ? earlier[8] : 0));
    },
    facts: (file, fingerprint) => {
      const entry = matching(file, fingerprint);
      if (entry === undefined) return undefined;
      let facts = decoded.get(entry);
      if (facts === undefined) {
        const checks = entry[8];
        facts = checks === 0 ? { shapeHash: entry[2] } : { shapeHash: entry[2], checks: { rules: checks[0], accounts: checks[1], media: checks[2] } };
        decoded.set(entry, facts);
      }
      return facts;
    },
    addFacts: (file, fingerprint, facts) => {
      const entry = matching(file, fingerprint);
      // Only check results are kept apart; a shape hash comes with every summary.
      if (entry === undefined || facts.checks === undefined) return;
      const updated: SummaryEntry = [...entry];
      updated[8] = [facts.checks.rules, facts.checks.accounts, facts.checks.media];
      section.set(file, updated);
    },
  };
}

function entryOf(digest: string, stamp: FileStamp | undefined, summary: PostSummary, checks: SummaryEntry[8]): SummaryEntry {
  const { keyPosition, diagnostics, schedule } = summary;
  const seldom = {
    ...(keyPosition === undefined ? {} : { keyPosition }),
    ...(diagnostics.length === 0 ? {} : { diagnostics }),
    ...(schedule === undefined ? {} : { schedule }),
  };
  return [
    digest,
    stamp === undefined ? 0 : [stamp.size, stamp.mtimeMs, stamp.ctimeMs, stamp.ino],
    summary.shapeHash,
    summary.mediaHashes,
    summary.key,
    summary.accountIds,
    summary.media ?? 0,
    Object.keys(seldom).length === 0 ? 0 : seldom,
    checks,
  ];
}

function summaryOf(entry: SummaryEntry): PostSummary {
  const [, , shapeHash, mediaHashes, key, accountIds, media, seldom] = entry;
  const summary: PostSummary = { key, diagnostics: [], accountIds, media: media === 0 ? undefined : media, mediaHashes, shapeHash };
  if (seldom === 0) return summary;
  if (seldom.keyPosition !== undefined) summary.keyPosition = seldom.keyPosition;
  if (seldom.diagnostics !== undefined) summary.diagnostics = seldom.diagnostics;
  if (seldom.schedule !== undefined) summary.schedule = seldom.schedule;
  return summary;
}

/** `sameStamp` for a stamp kept as a tuple. */
function stampMatches([size, mtimeMs, ctimeMs, ino]: [number, number, number, number], stats: StampSource): boolean {
  return size === stats.size && mtimeMs === stats.mtimeMs && ctimeMs === stats.ctimeMs && ino === stats.ino;
}
