import type { Post } from '../api/types.js';
import type { DesiredPost } from '../content/types.js';
import type { PostRecord, TargetState } from '../state/types.js';
import { isEditable, notEditableReason, recentlyWritten, type PlanContext } from './plan-context.js';
import { diffShapes, fieldList } from './diff.js';
import { isLeftToService, leftToService } from './live-shape.js';
import { withMediaFiles } from './media-changes.js';
import { changedOnRemote } from './remote-change.js';
import type { BlockedChange, Change, ChangeWith, CreateChange, NoopChange, ReasonOf } from './types.js';

/** Reasons a desired post's accounts cannot be written to; empty when all are available. */
function unavailableAccounts(post: DesiredPost, context: PlanContext): string[] {
  return post.shape.targets.flatMap((target, index) => {
    const label = post.targetLabels[index] ?? target.socialAccountId;
    const account = context.accounts.get(target.socialAccountId);
    if (!account) return [`account ${label} is not connected to this project`];
    if (account.available) return [];
    return [`account ${label} is unavailable: ${account.reason ?? 'no reason given'}`];
  });
}

function createChange(post: DesiredPost, context: PlanContext, { reason, reasons, resumesPending }: { reason: ReasonOf<'create'>; reasons: string[]; resumesPending: boolean }): CreateChange | BlockedChange {
  const base = { key: post.key, file: post.file, postId: null, desired: post.shape };
  const blockers = unavailableAccounts(post, context);
  if (blockers.length > 0) return { action: 'blocked', reason: 'account-unavailable', ...base, reasons: blockers };
  if (!resumesPending) return { action: 'create', reason, ...base, reasons };
  const made = context.pendingPost(post.key);
  if (made === undefined) return { action: 'create', reason, ...base, reasons, resumesPending: true };
  return { action: 'create', reason, ...base, postId: made.id, reasons: [...reasons, madePostFound(made)], resumesPending: true };
}

/** Why a resumed create sends nothing: the post it made is on the remote (`matchPendingCreates`). */
export function madePostFound(made: Pick<Post, 'id'>): string {
  return `the post it made (${made.id}) is on the remote: taken, the create is not sent again`;
}

function updateChange(post: DesiredPost, record: PostRecord, live: Post, context: PlanContext, remoteChanged: boolean): ChangeWith<'update' | 'blocked'> {
  const current = context.shapeOf(live);
  // What the remote differs in, options the file leaves to the service aside; a changed file is compared in full (its targets are sent whole).
  const kept = leftToService(current, post.shape);
  const changedLocally = post.shapeHash !== record.appliedHash;
  const fields = withMediaFiles(diffShapes(changedLocally && record.reread !== true ? current : kept, post.shape), post.media, context.state.media);
  const base = { key: post.key, file: post.file, postId: live.id, desired: post.shape, fields, liveUpdatedAt: live.updatedAt };
  if (!isEditable(live)) return { action: 'blocked', reason: 'not-editable', ...base, reasons: [notEditableReason(live, 'edited')] };
  const blockers = unavailableAccounts(post, context);
  if (blockers.length > 0) return { action: 'blocked', reason: 'account-unavailable', ...base, reasons: blockers };

  if (record.reread === true) {
    // Merged from two branches: the applied hash says nothing, so the file simply wins.
    return { action: 'update', reason: 'merged-record', ...base, reasons: [`the state entry was merged from two branches and re-read from the remote: ${fieldList(fields)} differ from ${post.file}`] };
  }
  if (!changedLocally) {
    // The file still says what was applied, so every difference happened on the remote.
    const drift = diffShapes(post.shape, kept);
    return { action: 'update', reason: 'drifted', ...base, drift, reasons: [`drifted on the remote since the last apply: ${fieldList(drift)}`] };
  }
  const reasons = [`changed in ${post.file}: ${fieldList(fields)}`];
  if (remoteChanged) reasons.push(`also drifted on the remote since the last apply; ${post.file} wins`);
  return { action: 'update', reason: 'file-changed', ...base, reasons };
}

/**
 * Untouched on both sides since the last apply: the remote still holds what was applied (same
 * `updatedAt`) and the file still says it (same shape hash, same path), so the post is a noop
 * without working out its live shape, or even the whole desired post.
 */
export function untouchedSinceApply(post: Pick<DesiredPost, 'file' | 'shapeHash'>, record: PostRecord | undefined, live: Pick<Post, 'updatedAt'> | undefined): boolean {
  return record !== undefined && live !== undefined && record.reread !== true && live.updatedAt === record.remoteUpdatedAt && post.shapeHash === record.appliedHash && record.file === post.file;
}

/** The reasons of every noop: one list, frozen, for the thousands of noops of a large plan. */
const UP_TO_DATE = Object.freeze(['up to date']) as unknown as string[];

/** The noop of a post untouched since the last apply. */
export function unchangedChange(post: Pick<DesiredPost, 'key' | 'file'>, live: Pick<Post, 'id' | 'updatedAt'>): NoopChange {
  return { action: 'noop', reason: 'up-to-date', key: post.key, file: post.file, postId: live.id, liveUpdatedAt: live.updatedAt, reasons: UP_TO_DATE };
}

/** Why a post no state record has is created: a resent create, a new occurrence of a repeat (its file may be old), or a new file. */
function newPostReason(post: DesiredPost, resumesPending: boolean): { reason: ReasonOf<'create'>; reasons: string[] } {
  if (resumesPending) return { reason: 'interrupted-create', reasons: ['resume an interrupted create'] };
  if (post.occurrence !== undefined) return { reason: 'new-occurrence', reasons: [`new occurrence (${post.occurrence.date})`] };
  return { reason: 'new-file', reasons: ['new file'] };
}

/**
 * The change of a post whose recorded post the remote does not show. Written moments ago: the read
 * lags the write, nothing to do (`not-visible-yet`). Else it was deleted on the remote, most often
 * by a person (a post pulled in a crisis): held (`deleted-on-remote`) until a person recreates it
 * (`--recreate`) or removes its file, never recreated silently.
 */
function goneChange(post: DesiredPost, record: PostRecord, context: PlanContext, resumesPending: boolean): Change {
  const base = { key: post.key, file: post.file, postId: record.postId };
  if (recentlyWritten(record, context.now)) {
    return { action: 'noop', reason: 'not-visible-yet', ...base, liveUpdatedAt: record.remoteUpdatedAt, reasons: [`written ${record.appliedAt}, not visible on the remote yet (a read that lags the write): nothing to do`] };
  }
  if (context.recreates(post.key)) {
    const reasons = [`deleted on the remote (last written ${record.appliedAt}); created again (--recreate)`];
    if (resumesPending) reasons.push('resume an interrupted create');
    return createChange(post, context, { reason: 'deleted-on-remote', reasons, resumesPending });
  }
  return {
    action: 'blocked', reason: 'deleted-on-remote', ...base, desired: post.shape,
    reasons: [
      `deleted on the remote since postsync last wrote it (${record.appliedAt}); held, not recreated`,
      `recreate it with \`postsync apply --recreate ${post.key}\`, or remove ${post.file} to forget it`,
    ],
  };
}

/**
 * The change for one desired post, paired by key with its state record and, through the record's
 * post id, with the live post. Posts that are the target of a rename are handled as moves instead.
 */
export function planDesiredPost(post: DesiredPost, context: PlanContext): Change {
  const record = context.state.posts[post.key];
  const resumesPending = context.state.pending[post.key] !== undefined;
  if (!record) {
    return createChange(post, context, { ...newPostReason(post, resumesPending), resumesPending });
  }
  const brief = context.liveBrief(record.postId);
  if (!brief) return goneChange(post, record, context, resumesPending);
  if (untouchedSinceApply(post, record, brief)) return unchangedChange(post, brief);
  const live = context.livePost(record.postId)!; // listed, so there in full too
  const current = context.shapeOf(live);
  const asApplied = post.shapeHash === record.appliedHash;
  const remoteChanged = record.reread === true || changedOnRemote(record, current, { shape: post.shape, asApplied });
  // The remote is what the file says (options left to the service aside), or neither side changed since the last apply.
  if (isLeftToService(current, post.shape, post.shapeHash) || (asApplied && !remoteChanged)) {
    if (record.file !== post.file) {
      // Same key, new path (front-matter `id` kept): only the state's file name changes.
      return {
        action: 'move', reason: 'renamed', key: post.key, fromKey: post.key, file: post.file, postId: live.id,
        liveUpdatedAt: live.updatedAt, reasons: [`renamed ${record.file} → ${post.file}`],
      };
    }
    return { action: 'noop', reason: 'up-to-date', key: post.key, file: post.file, postId: live.id, liveUpdatedAt: live.updatedAt, reasons: UP_TO_DATE };
  }
  return updateChange(post, record, live, context, remoteChanged);
}
