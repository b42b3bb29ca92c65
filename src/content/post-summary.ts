import type { StampSource } from '../cache/file-stamps.js';
import { hasErrors, type Diagnostic } from '../diagnostics.js';
import type { PostFileReading } from './interpret-file.js';
import { mediaLookupKey, type FoundMediaFiles, type MediaRequest } from './media-paths.js';
import type { ScheduleSource } from './normalize-post.js';
import { sortDiagnostics } from '../text/ordering.js';
import { checkSchedule, type AcceptPastSchedule } from './schedule-check.js';
import type { DesiredPost, PostChecks, SourcePosition, UnchangedPost } from './types.js';

/**
 * What a run needs of a post file read in full before, when the file's bytes and its media files
 * are unchanged: enough to check it again (clock, media paths) and to plan it as unchanged,
 * without reading or parsing it. Only files without errors are summarized.
 */
export interface PostSummary {
  key: string;
  keyPosition?: SourcePosition;
  /** Warnings of the file itself (its reading's diagnostics). */
  diagnostics: Diagnostic[];
  schedule?: ScheduleSource;
  /** The accounts the post targets, by id. */
  accountIds: string[];
  /** `media:` as written: the paths are resolved again on every run. */
  media: unknown;
  /** The fingerprint's media part (after the digest) that `shapeHash` was worked out with. */
  mediaHashes: string;
  shapeHash: string;
}

/** Facts worked out from a post, which hold for as long as its fingerprint is unchanged. */
export interface PostFacts {
  shapeHash?: string;
  checks?: PostChecks;
}

/** Facts kept with a post file's reading or summary, by the post's fingerprint (src/cache). */
export interface PostFactStore {
  facts(file: string, fingerprint: string): PostFacts | undefined;
  /** Adds to the facts kept for this fingerprint (facts kept for another one are dropped). */
  addFacts(file: string, fingerprint: string, facts: PostFacts): void;
}

/** A summary as kept: the digest of the bytes it was made from, and the checks' results for that post, once checked. */
export interface KeptSummary {
  digest: string;
  summary: PostSummary;
  checks?: PostChecks;
}

/** Summaries of post files read in full by earlier runs, by project-relative file (src/cache). */
export interface SummaryStore extends PostFactStore {
  /** The summary of `file` (with the digest of its bytes, and the check results kept for them) when its stamp is the settled one kept with it. */
  byStamp(file: string, stats: StampSource): KeptSummary | undefined;
  /** `read`: the file's stamp and when its bytes were read (a stamp is kept only once it has settled). */
  set(file: string, digest: string, summary: PostSummary, read?: { stats: StampSource; readAt: number }): void;
}

/**
 * Names a post by the digest of its file's bytes and its media files' sha256 (64 bits each tell an
 * edited file apart): the digest, a colon, then the media part.
 */
export function fingerprintOf(digest: string, media: readonly string[]): string {
  return `${digest}:${fingerprintMediaPart(media)}`;
}

/** The media part of the fingerprint of a post whose media requests are these, as found; undefined when one has a problem. */
export function foundMediaPart(requests: readonly MediaRequest[], found: FoundMediaFiles): string | undefined {
  const media: string[] = [];
  for (const { folder, ref } of requests) {
    const answer = found.get(mediaLookupKey(folder, ref));
    if (answer === undefined || 'problem' in answer) return undefined;
    media.push(answer.media.sha256);
  }
  return fingerprintMediaPart(media);
}

/** The media part of a fingerprint: 64 bits of each media file's sha256, in post order. */
function fingerprintMediaPart(media: readonly string[]): string {
  return media.length === 0 ? '' : media.map((sha256) => sha256.slice(0, 16)).join(',');
}

/** The media part of `fingerprint` when it was made from the bytes with this digest; undefined otherwise. */
export function mediaPartOf(fingerprint: string, digest: string): string | undefined {
  return fingerprint.length > digest.length && fingerprint.startsWith(digest) && fingerprint[digest.length] === ':' ? fingerprint.slice(digest.length + 1) : undefined;
}

/** Whether `fingerprint` is the one of these bytes and media part, compared without building it. */
export function isFingerprintOf(fingerprint: string, digest: string, mediaPart: string): boolean {
  return fingerprint.length === digest.length + 1 + mediaPart.length && fingerprint.startsWith(digest) && fingerprint[digest.length] === ':' && fingerprint.endsWith(mediaPart);
}

/** The summary of a post read in full from a file without errors, whose bytes have this digest (`post.fingerprint` is made from it). */
export function summaryOf(reading: PostFileReading, post: DesiredPost, digest: string): PostSummary {
  const mediaHashes = mediaPartOf(post.fingerprint ?? '', digest);
  if (mediaHashes === undefined) throw new Error(`the post of ${post.file} has no fingerprint of these bytes`);
  return {
    key: post.key,
    ...(reading.keyPosition === undefined ? {} : { keyPosition: reading.keyPosition }),
    diagnostics: reading.diagnostics,
    ...(reading.text?.schedule === undefined ? {} : { schedule: reading.text.schedule }),
    accountIds: post.shape.targets.map((target) => target.socialAccountId),
    media: reading.text?.media,
    mediaHashes,
    shapeHash: post.shapeHash,
  };
}

/**
 * The unchanged post a summary stands for, with this run's media and clock checks; undefined when
 * the file must be read in full instead: a media path has a problem or a media file changed (its
 * message or its hash needs the whole post), or the post is scheduled in the past.
 */
export function unchangedPost(
  file: string,
  kept: KeptSummary,
  /** `foundMediaPart` of the post's media requests: undefined when one of them has a problem. */
  mediaPart: string | undefined,
  clock: { now: Date; acceptPastSchedule?: AcceptPastSchedule },
): { post: UnchangedPost; diagnostics: Diagnostic[] } | undefined {
  const { summary } = kept;
  if (mediaPart === undefined || mediaPart !== summary.mediaHashes) return undefined;
  const fingerprint = `${kept.digest}:${mediaPart}`;
  const late = summary.schedule === undefined ? undefined : checkSchedule(summary.schedule, { key: summary.key, file, ...clock });
  const diagnostics = late === undefined ? summary.diagnostics : sortDiagnostics([...summary.diagnostics, late]);
  if (hasErrors(diagnostics)) return undefined;
  const post: UnchangedPost = { key: summary.key, file, shapeHash: summary.shapeHash, fingerprint, accountIds: summary.accountIds };
  if (kept.checks !== undefined) post.checks = kept.checks;
  return { post, diagnostics };
}
