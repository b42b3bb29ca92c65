import type { DesiredPost } from '../content/types.js';
import type { PendingCreate, PostRecord } from '../state/types.js';
import { isFinalStatus } from './final-status.js';
import { isLeftToService } from './live-shape.js';
import { isEditable, notEditable, type PlanContext } from './plan-context.js';
import type { ReasonDetail, RemovedOutcome } from './reason-details.js';
import { occurrenceOfKey } from '../repeats/index.js';
import { compareText } from '../text/ordering.js';
import type { Change, ChangeWith, MoveChange, Plan } from './types.js';

/**
 * Pairs state records whose file is gone with new files (no record, no pending create) that carry
 * exactly what was last applied, while the live post still matches it too: a rename. Pairs are
 * made in key order, so identical posts pair deterministically. Returns removed key → new post.
 */
export function matchRenames(
  removedKeys: readonly string[],
  newPosts: readonly DesiredPost[],
  context: PlanContext,
): Map<string, DesiredPost> {
  const byHash = new Map<string, DesiredPost[]>();
  for (const post of [...newPosts].sort((a, b) => compareText(a.key, b.key))) {
    const hash = post.shapeHash;
    byHash.set(hash, [...(byHash.get(hash) ?? []), post]);
  }
  const renames = new Map<string, DesiredPost>();
  for (const key of [...removedKeys].sort(compareText)) {
    const record = context.state.posts[key];
    const live = record && context.livePost(record.postId);
    const candidates = record && byHash.get(record.appliedHash);
    // The live post still as applied (options the file leaves to the service aside): a rename, not an edit.
    if (!live || !candidates?.length || !isLeftToService(context.shapeOf(live), candidates[0]!.shape, record.appliedHash)) continue;
    renames.set(key, candidates.shift()!);
  }
  return renames;
}

export function moveChange(fromKey: string, record: PostRecord, post: DesiredPost, context: PlanContext): MoveChange {
  const sameFile = record.file === post.file;
  const detail: ReasonDetail = sameFile ? { code: 'key-changed', fromKey, key: post.key, file: post.file } : { code: 'renamed', from: record.file, to: post.file };
  return {
    action: 'move',
    reason: sameFile ? 'key-changed' : 'renamed',
    key: post.key,
    fromKey,
    file: post.file,
    postId: record.postId,
    liveUpdatedAt: context.livePost(record.postId)?.updatedAt,
    details: [detail],
  };
}

/**
 * What becomes of an owned post whose file was removed (and not renamed). A removed file never lets
 * its post publish: without --prune a scheduled post goes back to draft on the remote (nothing is
 * published, nothing is lost, and restoring the file schedules it again), a draft stays as it is;
 * with --prune the post is deleted. A published post is never touched, and as nothing is left to
 * do for it, it is no change (not blocked): archiving the files of published posts must not leave
 * a plan, or the health check, reporting something for a person to do. Its record stays, so a
 * restored file pairs with its post again instead of creating a second one.
 */
export function removedPostChange(key: string, record: PostRecord, context: PlanContext): Change {
  const base = { key, file: record.file, postId: record.postId };
  const live = context.livePost(record.postId);
  if (!live) {
    return { action: 'delete', reason: 'gone-on-remote', ...base, stateOnly: true, details: [{ code: 'gone-on-remote' }] };
  }
  const gone = removal(key, record.file, context);
  if (isFinalStatus(live.status)) {
    // A published occurrence keeps its code: it is no change whatever the repeat says now.
    return { action: 'noop', reason: 'published-kept', ...base, liveUpdatedAt: live.updatedAt, details: [gone.detail('published-kept')], ...gone.occurrence };
  }
  if (!isEditable(live)) {
    return { action: 'blocked', reason: 'not-editable', ...base, liveUpdatedAt: live.updatedAt, details: [notEditable(live, 'deleted')] };
  }
  if (context.prune) return { action: 'delete', reason: gone.reason, ...base, liveUpdatedAt: live.updatedAt, details: [gone.detail('deleted')], ...gone.occurrence };
  if (live.scheduledAt === null || live.scheduledAt === undefined) {
    return { action: 'noop', reason: gone.reason, ...base, liveUpdatedAt: live.updatedAt, details: [gone.detail('kept-as-draft')], ...gone.occurrence };
  }
  return {
    action: 'unschedule',
    reason: gone.reason,
    ...base,
    liveUpdatedAt: live.updatedAt,
    fields: [{ field: 'scheduledAt', before: live.scheduledAt, after: null }],
    details: [gone.detail('back-to-draft')],
    ...gone.occurrence,
  };
}

/**
 * What is gone of an owned post no desired post stands for: its file (`file-removed`), or, when its
 * key is an occurrence of a repeat that `file` still holds, that occurrence (a lower `count`, an
 * earlier `until`): its change says so, and names the repeat in `occurrence`.
 */
function removal(key: string, file: string, context: PlanContext) {
  const occurrence = occurrenceOfKey(key);
  // `repeatFiles` maps to files: a record of another file is not this repeat's occurrence.
  if (occurrence === undefined || context.repeatFiles.get(occurrence.of) !== file) {
    return { reason: 'file-removed' as const, occurrence: {}, detail: (outcome: RemovedOutcome): ReasonDetail => ({ code: 'file-removed', file, outcome }) };
  }
  return {
    reason: 'occurrence-removed' as const,
    occurrence: { occurrence },
    detail: (outcome: RemovedOutcome): ReasonDetail => ({ code: 'occurrence-removed', date: occurrence.date, file, outcome }),
  };
}

/**
 * A pending create whose file was removed. The post may exist on the remote, so it is never just
 * forgotten: the post it made when the listing shows it (`postId`), else the create resent with its
 * Idempotency-Key (which returns the original post if it was created), goes back to draft, or with
 * --prune is deleted.
 */
export function removedPendingChange(key: string, pending: PendingCreate, context: PlanContext): ChangeWith<'delete' | 'unschedule'> {
  const made = context.pendingPost(key);
  const gone = removal(key, pending.file, context);
  const details: ReasonDetail[] = gone.reason === 'occurrence-removed'
    ? [gone.detail(context.prune ? 'deleted' : 'back-to-draft')]
    : [{ code: 'pending-removed', file: pending.file, prune: context.prune }, ...(made === undefined ? [] : [{ code: 'made-post-found' as const, postId: made.id }])];
  return {
    action: context.prune ? 'delete' : 'unschedule',
    reason: gone.reason,
    key,
    file: pending.file,
    postId: made?.id ?? null,
    ...(made === undefined ? {} : { liveUpdatedAt: made.updatedAt }),
    resumesPending: true,
    details,
    ...gone.occurrence,
  };
}

/**
 * How many owned posts the plan leaves as drafts because their file, or their occurrence of a
 * repeat, is gone (noops): views count them, as `--prune` would delete them.
 */
export function removedKeptAsDrafts(plan: Pick<Plan, 'changes'>): number {
  return plan.changes.filter((change) => change.action === 'noop' && (change.reason === 'file-removed' || change.reason === 'occurrence-removed')).length;
}
