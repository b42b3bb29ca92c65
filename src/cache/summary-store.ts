import { isFingerprintOf, type PostSummary, type SummaryStore } from '../content/post-summary.js';
import type { PostChecks } from '../content/types.js';
import type { Diagnostic } from '../diagnostics.js';
import type { CacheSection } from './cache-section.js';
import { settledStamp, type FileStamp, type StampSource } from './file-stamps.js';

type Checks = PostChecks;

/** Shared by every post checked without a diagnostic: frozen, so nobody can add to it. */
const NONE = Object.freeze([]) as unknown as Diagnostic[];

/**
 * One post file's entry in the `posts` section (kept in its file as columns, summary-columns.ts).
 * The fields a post seldom has (`keyPosition`, warnings, `schedule`) share one object, or 0.
 */
export type SummaryEntry = [
  digest: string,
  /** The file's stamp when its bytes were read, once settled (see StampedFacts); all four -1 otherwise. */
  size: number,
  mtimeMs: number,
  ctimeMs: number,
  ino: number,
  shapeHash: string,
  mediaHashes: string,
  key: string,
  accountIds: string[],
  media: unknown,
  seldom: Partial<Pick<PostSummary, 'keyPosition' | 'diagnostics' | 'schedule'>> | 0,
  /** Check results for the post of these bytes and media, the diagnostics left out when there are none; 0 when not checked yet. */
  checks: [rules: string, accounts: Checks['accounts'], media: Checks['media']] | [rules: string] | 0,
];

const NO_STAMP = -1;

/** The SummaryStore backed by a `posts` cache section (keyed by project-relative file). */
export function summaryStore(section: CacheSection<SummaryEntry>): SummaryStore {
  const matching = (file: string, fingerprint: string): SummaryEntry | undefined => {
    const entry = section.get(file);
    return entry !== undefined && isFingerprintOf(fingerprint, entry[0], entry[6]) ? entry : undefined;
  };
  return {
    byStamp: (file, stats) => {
      const entry = section.get(file);
      if (entry === undefined || !stampMatches(entry, stats)) return undefined;
      const checks = checksOf(entry);
      return checks === undefined ? { digest: entry[0], summary: summaryOf(entry) } : { digest: entry[0], summary: summaryOf(entry), checks };
    },
    set: (file, digest, summary, read) => {
      const stamp = read === undefined ? undefined : settledStamp(read.stats, read.readAt);
      const earlier = section.get(file);
      const same = earlier !== undefined && earlier[0] === digest && earlier[6] === summary.mediaHashes;
      if (same && (stamp === undefined ? earlier[1] === NO_STAMP : stampMatches(earlier, stamp))) return;
      section.set(file, entryOf(digest, stamp, summary, same ? earlier[11] : 0));
    },
    facts: (file, fingerprint) => {
      const entry = matching(file, fingerprint);
      if (entry === undefined) return undefined;
      const checks = checksOf(entry);
      return checks === undefined ? { shapeHash: entry[5] } : { shapeHash: entry[5], checks };
    },
    addFacts: (file, fingerprint, facts) => {
      const entry = matching(file, fingerprint);
      // Only check results are kept apart; a shape hash comes with every summary.
      if (entry === undefined || facts.checks === undefined) return;
      const updated: SummaryEntry = [...entry];
      const { rules, accounts, media } = facts.checks;
      updated[11] = accounts.length === 0 && media.length === 0 ? [rules] : [rules, accounts, media];
      section.set(file, updated);
    },
  };
}

function entryOf(digest: string, stamp: FileStamp | undefined, summary: PostSummary, checks: SummaryEntry[11]): SummaryEntry {
  const { keyPosition, diagnostics, schedule } = summary;
  const seldom = {
    ...(keyPosition === undefined ? {} : { keyPosition }),
    ...(diagnostics.length === 0 ? {} : { diagnostics }),
    ...(schedule === undefined ? {} : { schedule }),
  };
  return [
    digest,
    ...(stamp === undefined ? ([NO_STAMP, NO_STAMP, NO_STAMP, NO_STAMP] as const) : ([stamp.size, stamp.mtimeMs, stamp.ctimeMs, stamp.ino] as const)),
    summary.shapeHash,
    summary.mediaHashes,
    summary.key,
    summary.accountIds,
    summary.media ?? 0,
    Object.keys(seldom).length === 0 ? 0 : seldom,
    checks,
  ];
}

function checksOf(entry: SummaryEntry): Checks | undefined {
  const checks = entry[11];
  return checks === 0 ? undefined : { rules: checks[0], accounts: checks[1] ?? NONE, media: checks[2] ?? NONE };
}

function summaryOf(entry: SummaryEntry): PostSummary {
  const [, , , , , shapeHash, mediaHashes, key, accountIds, media, seldom] = entry;
  const summary: PostSummary = { key, diagnostics: [], accountIds, media: media === 0 ? undefined : media, mediaHashes, shapeHash };
  if (seldom === 0) return summary;
  if (seldom.keyPosition !== undefined) summary.keyPosition = seldom.keyPosition;
  if (seldom.diagnostics !== undefined) summary.diagnostics = seldom.diagnostics;
  if (seldom.schedule !== undefined) summary.schedule = seldom.schedule;
  return summary;
}

/** `sameStamp` for the stamp kept in an entry (never true of an entry without one: no file has size -1). */
function stampMatches(entry: SummaryEntry, stats: StampSource): boolean {
  return entry[1] === stats.size && entry[2] === stats.mtimeMs && entry[3] === stats.ctimeMs && entry[4] === stats.ino;
}
