import type { DesiredPost } from '../content/types.js';
import { shapeHash } from '../content/shape-hash.js';
import type { PendingCreate, PostRecord } from '../state/types.js';
import { isEditable, notEditableReason, type PlanContext } from './plan-context.js';
import { compareText } from '../text/ordering.js';
import type { Change } from './types.js';

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
    if (!record || !live || shapeHash(context.shapeOf(live)) !== record.appliedHash) continue;
    const candidate = byHash.get(record.appliedHash)?.shift();
    if (candidate) renames.set(key, candidate);
  }
  return renames;
}

export function moveChange(fromKey: string, record: PostRecord, post: DesiredPost, context: PlanContext): Change {
  const reason =
    record.file === post.file ? `key changed ${fromKey} → ${post.key} in ${post.file}` : `renamed ${record.file} → ${post.file}`;
  return {
    action: 'move',
    key: post.key,
    fromKey,
    file: post.file,
    postId: record.postId,
    liveUpdatedAt: context.livePost(record.postId)?.updatedAt,
    reasons: [reason],
  };
}

/** An owned post whose file was removed (and not renamed): deleted only with --prune. */
export function removedPostChange(key: string, record: PostRecord, context: PlanContext): Change {
  const base = { key, file: record.file, postId: record.postId };
  const live = context.livePost(record.postId);
  if (!live) {
    return { action: 'delete', ...base, stateOnly: true, reasons: ['already deleted on the remote; will be forgotten'] };
  }
  if (!isEditable(live)) {
    return { action: 'blocked', ...base, liveUpdatedAt: live.updatedAt, reasons: [notEditableReason(live, 'deleted')] };
  }
  return {
    action: 'delete',
    ...base,
    liveUpdatedAt: live.updatedAt,
    skipped: !context.prune,
    reasons: [context.prune ? `${record.file} removed` : `${record.file} removed; run with --prune to delete`],
  };
}

/**
 * A pending create whose file was removed. The post may exist on the remote, so it is never just
 * forgotten: with --prune, the create is resent with its Idempotency-Key (which returns the
 * original post if it was created) and that post is deleted.
 */
export function removedPendingChange(key: string, pending: PendingCreate, context: PlanContext): Change {
  const reason = `${pending.file} removed while its create was interrupted`;
  return {
    action: 'delete',
    key,
    file: pending.file,
    postId: null,
    resumesPending: true,
    skipped: !context.prune,
    reasons: [context.prune ? `${reason}; the create is resolved, then deleted` : `${reason}; run with --prune to delete`],
  };
}
