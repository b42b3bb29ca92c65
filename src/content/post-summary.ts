import type { Stats } from 'node:fs';
import { hasErrors, type Diagnostic } from '../diagnostics.js';
import { sortDiagnostics } from '../text/ordering.js';
import type { PostFileReading } from './interpret-file.js';
import type { MediaFacts } from './media-cache.js';
import { mediaLookupKey, type FoundMediaFiles, type MediaRequest } from './media-paths.js';
import type { ScheduleSource } from './normalize-post.js';
import { checkSchedule, type AcceptPastSchedule } from './schedule-check.js';
import type { SnippetUse } from './snippet-files.js';
import type { DesiredPost, SourcePosition, UnchangedPost } from './types.js';

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
  /** The media part of the post's fingerprint (`fingerprintOf`), which `shapeHash` was worked out with. */
  mediaHashes: string;
  shapeHash: string;
  /** The snippet files its texts include, with their digests then (in the digest the summary is kept with): all must be the same again. */
  snippets?: SnippetUse[];
}

/** How a post file's bytes were read: their digest, the file's stats when opened, and when the read began (epoch ms). */
export interface BytesRead {
  digest: string;
  stats: Stats;
  readAt: number;
}

/**
 * The one way content reading reuses what an earlier run found out (src/cache implements it with
 * `.postsync/cache`): it asks whether a post file's bytes are known unchanged since the file was
 * summarized, it tells of every post file it reads in full without errors, and it asks what a
 * media file holds.
 */
export interface EarlierReadings {
  /** The summary of `file` and the digest of its bytes, when the file at `path` is known to hold the same bytes without reading them. */
  unchanged(file: string, path: string): { digest: string; summary: PostSummary } | undefined;
  /** `file` was just read in full, without errors, as `read` says. */
  remember(file: string, read: BytesRead, summary: PostSummary): void;
  /** What the media file at `realPath` (as `stats` describe it now) holds, as found out before, or `workOut()`'s answer, remembered. */
  mediaFacts(realPath: string, stats: Stats, workOut: () => Promise<MediaFacts>): Promise<MediaFacts>;
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

/**
 * The summary of a post read in full from a file without errors, including these snippets;
 * `found`: the warnings of its texts (templates, house rules) besides those of its reading.
 */
export function summaryOf(reading: PostFileReading, post: DesiredPost, snippets: readonly SnippetUse[], found: readonly Diagnostic[] = []): PostSummary {
  return {
    key: post.key,
    ...(reading.keyPosition === undefined ? {} : { keyPosition: reading.keyPosition }),
    diagnostics: found.length === 0 ? reading.diagnostics : sortDiagnostics([...reading.diagnostics, ...found]),
    ...(reading.text?.schedule === undefined ? {} : { schedule: reading.text.schedule }),
    accountIds: post.shape.targets.map((target) => target.socialAccountId),
    media: reading.text?.media,
    mediaHashes: fingerprintMediaPart(post.shape.media),
    shapeHash: post.shapeHash,
    ...(snippets.length === 0 ? {} : { snippets: [...snippets] }),
  };
}

/**
 * The unchanged post a summary stands for, with this run's media and clock checks; undefined when
 * the file must be read in full instead: a media path has a problem or a media file changed (its
 * message or its hash needs the whole post), or the post is scheduled in the past. (Its snippet
 * files must be checked unchanged first: `sameSnippets`.)
 */
export function unchangedPost(
  file: string,
  kept: { digest: string; summary: PostSummary },
  /** `foundMediaPart` of the post's media requests: undefined when one of them has a problem. */
  mediaPart: string | undefined,
  clock: { now: Date; config: { timezone: string }; acceptPastSchedule?: AcceptPastSchedule },
): { post: UnchangedPost; diagnostics: Diagnostic[] } | undefined {
  const { summary } = kept;
  if (mediaPart === undefined || mediaPart !== summary.mediaHashes) return undefined;
  const late = summary.schedule === undefined ? undefined : checkSchedule(summary.schedule, { key: summary.key, file, now: clock.now, timezone: clock.config.timezone, ...(clock.acceptPastSchedule === undefined ? {} : { acceptPastSchedule: clock.acceptPastSchedule }) });
  const diagnostics = late === undefined ? summary.diagnostics : sortDiagnostics([...summary.diagnostics, late]);
  if (hasErrors(diagnostics)) return undefined;
  const { schedule } = summary;
  const post: UnchangedPost = { key: summary.key, file, shapeHash: summary.shapeHash, fingerprint: `${kept.digest}:${mediaPart}`, accountIds: summary.accountIds, scheduledAt: schedule?.instant ?? null, ...(schedule?.position === undefined ? {} : { scheduleAt: schedule.position }) };
  return { post, diagnostics };
}
