import type { Post } from '../api/types.js';
import type { DesiredPost } from '../content/types.js';
import type { PostRecord, ProjectState } from '../state/types.js';
import { isEditable, notEditable, recentlyWritten, type PlanContext } from './plan-context.js';
import { diffShapes, fieldNames } from './diff.js';
import { fieldOrigins, sourcesOf } from './field-origins.js';
import { isLeftToService, leftToService } from './live-shape.js';
import { withMediaFiles } from './media-changes.js';
import { changedOnRemote } from './remote-change.js';
import { UP_TO_DATE, type ReasonDetail } from './reason-details.js';
import type { BlockedChange, Change, ChangeWith, CreateChange, NoopChange, ReasonOf } from './types.js';

/** Why a desired post's accounts cannot be written to; empty when all are available. */
function unavailableAccounts(post: DesiredPost, context: PlanContext): ReasonDetail[] {
  return post.shape.targets.flatMap((target, index): ReasonDetail[] => {
    const account = post.targetLabels[index] ?? target.socialAccountId;
    const availability = context.accounts.get(target.socialAccountId);
    if (!availability) return [{ code: 'account-not-connected', account }];
    if (availability.available) return [];
    return [{ code: 'account-unavailable', account, why: availability.reason ?? null }];
  });
}

function createChange(post: DesiredPost, context: PlanContext, { reason, details, resumesPending }: { reason: ReasonOf<'create'>; details: ReasonDetail[]; resumesPending: boolean }): CreateChange | BlockedChange {
  const base = { key: post.key, file: post.file, postId: null, desired: post.shape };
  const blockers = unavailableAccounts(post, context);
  if (blockers.length > 0) return { action: 'blocked', reason: 'account-unavailable', ...base, details: blockers };
  if (!resumesPending) return { action: 'create', reason, ...base, ...sourcesOf(post), details };
  const made = context.pendingPost(post.key);
  if (made === undefined) return { action: 'create', reason, ...base, details, resumesPending: true };
  return { action: 'create', reason, ...base, postId: made.id, details: [...details, { code: 'made-post-found', postId: made.id }], resumesPending: true };
}

function updateChange(post: DesiredPost, record: PostRecord, live: Post, context: PlanContext, remoteChanged: boolean): ChangeWith<'update' | 'blocked'> {
  const current = context.shapeOf(live);
  // What the remote differs in, options the file leaves to the service aside; a changed file is compared in full (its targets are sent whole).
  const kept = leftToService(current, post.shape);
  const changedLocally = post.shapeHash !== record.appliedHash;
  const fields = withMediaFiles(diffShapes(changedLocally && record.reread !== true ? current : kept, post.shape), post.media, context.state.media);
  const base = { key: post.key, file: post.file, postId: live.id, desired: post.shape, fields, liveUpdatedAt: live.updatedAt };
  if (!isEditable(live)) return { action: 'blocked', reason: 'not-editable', ...base, details: [notEditable(live, 'edited')] };
  const blockers = unavailableAccounts(post, context);
  if (blockers.length > 0) return { action: 'blocked', reason: 'account-unavailable', ...base, details: blockers };

  if (record.reread === true) {
    // Merged from two branches: the applied hash says nothing, so the file simply wins.
    return { action: 'update', reason: 'merged-record', ...base, ...sourcesOf(post), details: [{ code: 'merged-record', file: post.file, fields: fieldNames(fields) }] };
  }
  if (!changedLocally) {
    // The file still says what was applied, so every difference happened on the remote.
    const drift = diffShapes(post.shape, kept);
    return { action: 'update', reason: 'drifted', ...base, ...sourcesOf(post), drift, details: [{ code: 'drifted', fields: fieldNames(drift) }] };
  }
  const details: ReasonDetail[] = [{ code: 'file-changed', file: post.file, fields: fieldNames(fields) }];
  if (remoteChanged) details.push({ code: 'also-drifted', file: post.file });
  const origins = fieldOrigins(fields, post, record);
  return { action: 'update', reason: 'file-changed', ...base, ...sourcesOf(post), ...(origins === undefined ? {} : { origins }), details };
}

/**
 * Untouched on both sides since the last apply: the remote still holds what was applied (same
 * `updatedAt`) and the file still says it (same shape hash, same path), so the post is a noop
 * without working out its live shape, or even the whole desired post.
 */
export function untouchedSinceApply(post: Pick<DesiredPost, 'file' | 'shapeHash'>, record: PostRecord | undefined, live: Pick<Post, 'updatedAt'> | undefined): boolean {
  return record !== undefined && live !== undefined && record.reread !== true && live.updatedAt === record.remoteUpdatedAt && post.shapeHash === record.appliedHash && record.file === post.file;
}

/** The noop of a post untouched since the last apply. */
export function unchangedChange(post: Pick<DesiredPost, 'key' | 'file'>, live: Pick<Post, 'id' | 'updatedAt'>): NoopChange {
  return { action: 'noop', reason: 'up-to-date', key: post.key, file: post.file, postId: live.id, liveUpdatedAt: live.updatedAt, details: UP_TO_DATE };
}

/** Why a post no state record has is created: a resent create, a new occurrence of a repeat (its file may be old), or a new file. */
function newPostReason(post: DesiredPost, resumesPending: boolean): { reason: ReasonOf<'create'>; details: ReasonDetail[] } {
  if (resumesPending) return { reason: 'interrupted-create', details: [{ code: 'interrupted-create' }] };
  if (post.occurrence !== undefined) return { reason: 'new-occurrence', details: [{ code: 'new-occurrence', date: post.occurrence.date }] };
  return { reason: 'new-file', details: [{ code: 'new-file' }] };
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
    return { action: 'noop', reason: 'not-visible-yet', ...base, liveUpdatedAt: record.remoteUpdatedAt, details: [{ code: 'not-visible-yet', appliedAt: record.appliedAt }] };
  }
  if (context.recreates(post.key)) {
    const details: ReasonDetail[] = [{ code: 'recreated', appliedAt: record.appliedAt }];
    if (resumesPending) details.push({ code: 'interrupted-create' });
    return createChange(post, context, { reason: 'deleted-on-remote', details, resumesPending });
  }
  return {
    action: 'blocked', reason: 'deleted-on-remote', ...base, desired: post.shape,
    details: [
      { code: 'deleted-on-remote', appliedAt: record.appliedAt },
      { code: 'recreate-hint', key: post.key, file: post.file },
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
        liveUpdatedAt: live.updatedAt, details: [{ code: 'renamed', from: record.file, to: post.file }],
      };
    }
    return { action: 'noop', reason: 'up-to-date', key: post.key, file: post.file, postId: live.id, liveUpdatedAt: live.updatedAt, details: UP_TO_DATE };
  }
  return updateChange(post, record, live, context, remoteChanged);
}
