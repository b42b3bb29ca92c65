import type { DesiredPost } from '../content/types.js';
import type { PendingCreate, PostRecord } from '../state/types.js';
import { madePostFound } from './desired-changes.js';
import { isFinalStatus } from './final-status.js';
import { isLeftToService } from './live-shape.js';
import { isEditable, notEditableReason, type PlanContext } from './plan-context.js';
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
  const reason = sameFile ? `key changed ${fromKey} → ${post.key} in ${post.file}` : `renamed ${record.file} → ${post.file}`;
  return {
    action: 'move',
    reason: sameFile ? 'key-changed' : 'renamed',
    key: post.key,
    fromKey,
    file: post.file,
    postId: record.postId,
    liveUpdatedAt: context.livePost(record.postId)?.updatedAt,
    reasons: [reason],
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
    return { action: 'delete', reason: 'gone-on-remote', ...base, stateOnly: true, reasons: ['already deleted on the remote; will be forgotten'] };
  }
  if (isFinalStatus(live.status)) {
    return { action: 'noop', reason: 'published-kept', ...base, liveUpdatedAt: live.updatedAt, reasons: [`${record.file} removed: ${STAYS_PUBLISHED}`] };
  }
  if (!isEditable(live)) {
    return { action: 'blocked', reason: 'not-editable', ...base, liveUpdatedAt: live.updatedAt, reasons: [notEditableReason(live, 'deleted')] };
  }
  if (context.prune) return { action: 'delete', reason: 'file-removed', ...base, liveUpdatedAt: live.updatedAt, reasons: [`${record.file} removed`] };
  if (live.scheduledAt === null || live.scheduledAt === undefined) {
    return { action: 'noop', reason: 'file-removed', ...base, liveUpdatedAt: live.updatedAt, reasons: [keptAsDraft(record.file)] };
  }
  return {
    action: 'unschedule',
    reason: 'file-removed',
    ...base,
    liveUpdatedAt: live.updatedAt,
    fields: [{ field: 'scheduledAt', before: live.scheduledAt, after: null }],
    reasons: [backToDraft(record.file)],
  };
}

/** Why a published post whose file or occurrence is gone is no change. */
export const STAYS_PUBLISHED = 'the post is published and stays as it is (published posts are never deleted)';

/** The reason of an unschedule: the file is gone, so its post goes back to draft. */
export function backToDraft(file: string): string {
  return `${file} removed: the post goes back to draft on the remote (--prune deletes it)`;
}

/** The reason of a removed file's post that is a draft already: it stays one. */
export function keptAsDraft(file: string): string {
  return `${file} removed: the post stays a draft on the remote (--prune deletes it)`;
}

/**
 * A pending create whose file was removed. The post may exist on the remote, so it is never just
 * forgotten: the post it made when the listing shows it (`postId`), else the create resent with its
 * Idempotency-Key (which returns the original post if it was created), goes back to draft, or with
 * --prune is deleted.
 */
export function removedPendingChange(key: string, pending: PendingCreate, context: PlanContext): ChangeWith<'delete' | 'unschedule'> {
  const reason = `${pending.file} removed while its create was interrupted`;
  const made = context.pendingPost(key);
  return {
    action: context.prune ? 'delete' : 'unschedule',
    reason: 'file-removed',
    key,
    file: pending.file,
    postId: made?.id ?? null,
    ...(made === undefined ? {} : { liveUpdatedAt: made.updatedAt }),
    resumesPending: true,
    reasons: [
      context.prune ? `${reason}; the create is resolved, then deleted` : `${reason}; the create is resolved, then the post goes back to draft (--prune deletes it)`,
      ...(made === undefined ? [] : [madePostFound(made)]),
    ],
  };
}

/**
 * How many owned posts the plan leaves as drafts because their file, or their occurrence of a
 * repeat, is gone (noops): views count them, as `--prune` would delete them.
 */
export function removedKeptAsDrafts(plan: Pick<Plan, 'changes'>): number {
  return plan.changes.filter((change) => change.action === 'noop' && (change.reason === 'file-removed' || change.reason === 'occurrence-removed')).length;
}
