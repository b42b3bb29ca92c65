import { ApiError, ErrorCodes, type ApiClient } from '../api/index.js';
import type { CreatePostBody, Post } from '../api/types.js';
import type { PostShape } from '../content/types.js';
import { PostsyncError } from '../errors.js';
import { diffShapes } from '../plan/diff.js';
import { liveShape, mediaIdIndex } from '../plan/live-shape.js';
import type { Change, ChangeWith } from '../plan/types.js';
import { shapeHash } from '../content/shape-hash.js';
import { idempotencyKey } from '../state/idempotency.js';
import type { StateStore } from '../state/state-store.js';
import { createBody, draftOf, patchBody } from './payload.js';

export interface ExecuteContext {
  client: ApiClient;
  store: StateStore;
  targetId: string;
  now: () => Date;
  /**
   * Takes the state writes that record a finished request (a create completed, update, move, delete) instead
   * of awaiting them here; the caller awaits them before it counts the change as done. A pending
   * record is always awaited: it must be on disk before its create is sent.
   */
  defer?: (saving: Promise<void>) => void;
}

async function saved(context: ExecuteContext, saving: Promise<void>): Promise<void> {
  if (context.defer) context.defer(saving);
  else await saving;
}

/** Runs one planned change; the state is written after every remote write. Returns the post id touched. */
export async function executeChange(change: Change, context: ExecuteContext): Promise<string | null> {
  switch (change.action) {
    case 'create':
      return create(change, context);
    case 'adopt':
      return adopt(change, context);
    case 'update':
      return update(change, context);
    case 'move':
      return move(change, context);
    case 'unschedule':
      return unschedule(change, context);
    case 'delete':
      return remove(change, context);
    case 'noop':
    case 'blocked':
      return change.postId;
  }
}

/**
 * Create protocol: the pending record (key, Idempotency-Key, exact payload) is on disk before the
 * request leaves, so a crash or lost response is resolved next run by resending the same payload
 * with the same key, which returns the original post instead of making a second one.
 */
async function create(change: ChangeWith<'create'>, context: ExecuteContext): Promise<string> {
  const post = change.resumesPending ? await resendPending(change, context) : await createFresh(change, context);
  return converge(change, post, context);
}

async function createFresh(change: ChangeWith<'create'>, context: ExecuteContext): Promise<Post> {
  const { store } = context;
  const { desired } = change;
  const payload = createBody(desired, store.section);
  // A post recreated after a deletion on the remote gets a key of its own: under the first create's
  // key, a service that still remembers it would answer with the deleted post.
  const replaced = change.reason === 'deleted-on-remote' ? store.section.posts[change.key]?.postId : undefined;
  const postKey = replaced === undefined ? change.key : `${change.key}#replaces:${replaced}`;
  const key = idempotencyKey({ targetId: context.targetId, calendar: store.calendar, postKey, payload });
  await store.recordPending(change.key, {
    file: change.file,
    idempotencyKey: key,
    payload,
    shapeHash: shapeHash(draftOf(desired)),
    startedAt: context.now().toISOString(),
  });
  return recordCreated(change.key, change.file, await sendCreate(change.key, payload, key, context), shapeHash(draftOf(desired)), context, change.sources);
}

/**
 * Resolves an interrupted create: the post it made, when the plan found it on the remote
 * (`change.postId`), else the create resent with its Idempotency-Key. The found post is read again
 * first; gone since the plan, the create is resent as before.
 */
async function resendPending(change: ChangeWith<'create' | 'unschedule' | 'delete'>, context: ExecuteContext): Promise<Post> {
  const { key } = change;
  const pending = context.store.section.pending[key];
  if (!pending) throw new PostsyncError(`no interrupted create of "${key}" is recorded any more; plan again`);
  const made = change.postId === null ? null : await readIfThere(change.postId, context);
  const post = made ?? (await sendCreate(key, pending.payload, pending.idempotencyKey, context));
  return recordCreated(key, pending.file, post, pending.shapeHash, context);
}

async function readIfThere(postId: string, context: ExecuteContext): Promise<Post | null> {
  try {
    return await context.client.getPost(postId);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * Sends a create whose pending record is on disk. An answer that proves this request made no post
 * (`refusedForGood`) drops the pending record: a create under this key and payload would be refused
 * again, and kept, the next run would resend this very payload instead of planning the file (fixed
 * by then) afresh, with a new payload and key. Any other failure keeps it: the post may exist.
 */
async function sendCreate(key: string, payload: CreatePostBody, idempotencyKey: string, context: ExecuteContext): Promise<Post> {
  try {
    return await context.client.createPost(payload, { idempotencyKey });
  } catch (error) {
    if (refusedForGood(error)) await context.store.removePost(key);
    throw error;
  }
}

/**
 * Refusals that cannot have created the post, by what the spec says they mean:
 * - 400: the request failed as sent (the service refuses the post as it is and says why);
 * - 413: the JSON body is over the limit, refused while it is read, possibly before the service
 *   handler runs at all, so never by a handler that went on to create;
 * - 422: the payload could not be processed. Except `idempotency_key_reused`: that one says an
 *   earlier request under this key did make a post, and the pending record is what lets the state
 *   find it, so it stays.
 * Not 408, 409, 429, 5xx or a lost answer: the request may still be running, or may have run.
 */
function refusedForGood(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 422) return error.code !== ErrorCodes.idempotencyKeyReused;
  return error.status === 400 || error.status === 413;
}

/** `sources`: what the applied file was made from (a resumed create's pending payload may be an older file's: none). */
async function recordCreated(key: string, file: string, post: Post, appliedHash: string, context: ExecuteContext, sources?: Record<string, string>): Promise<Post> {
  await saved(context, context.store.completeCreate(key, { postId: post.id, file, appliedHash, remoteUpdatedAt: post.updatedAt, observedHash: observedHash(post, context), appliedAt: context.now().toISOString(), ...(sources === undefined ? {} : { sources }) }));
  return post;
}

/** The hash of a post's shape as the service answered it: what the record keeps as observed (`PostRecord.observedHash`). */
function observedHash(post: Post, context: ExecuteContext): string {
  return shapeHash(liveShape(post, mediaIdIndex(context.store.section)));
}

/** After a create (fresh or resumed), one PATCH brings the post to the desired shape: the schedule, or edits made since an interrupted run. */
async function converge(change: ChangeWith<'create'>, post: Post, context: ExecuteContext): Promise<string> {
  const { desired } = change;
  const live = liveShape(post, mediaIdIndex(context.store.section));
  const fields = diffShapes(live, desired);
  if (fields.length === 0) return post.id;
  const updated = await context.client.updatePost(post.id, patchBody(desired, fields, context.store.section));
  await record(change, updated, desired, context);
  return post.id;
}

/**
 * The remote post is already exactly the file (the planner matched it), so no request is sent:
 * the state records its media the state did not know (matched by content, so never uploaded
 * again), then the post as applied, with its `updatedAt` as planned, so a later edit on either
 * side shows as usual.
 */
async function adopt(change: ChangeWith<'adopt'>, context: ExecuteContext): Promise<string> {
  const { desired, postId } = change;
  const { store } = context;
  for (const { sha256, mediaId, sizeBytes, contentType } of change.mediaRecords ?? []) {
    // Another adopt of this run (or an upload) may have recorded the same file already; a record without its seal is replaced.
    if (store.confirms('media', sha256)) continue;
    await saved(context, store.recordMedia(sha256, { mediaId, sizeBytes, contentType, uploadedAt: context.now().toISOString() }));
  }
  // A plan saved before adopts carried the observed hash has none: the record is then one from before observed shapes.
  const observed = change.observedHash === undefined ? {} : { observedHash: change.observedHash };
  const appliedHash = change.asFound === true && change.observedHash !== undefined ? change.observedHash : shapeHash(desired);
  const sources = change.asFound === true || change.sources === undefined ? {} : { sources: change.sources };
  await saved(context, context.store.recordUpdate(change.key, { postId, file: change.file, appliedHash, remoteUpdatedAt: change.liveUpdatedAt, ...observed, appliedAt: context.now().toISOString(), ...sources }));
  return postId;
}

async function update(change: ChangeWith<'update'>, context: ExecuteContext): Promise<string> {
  const { desired, postId } = change;
  const updated = await context.client.updatePost(postId, patchBody(desired, change.fields, context.store.section));
  await record(change, updated, desired, context);
  return postId;
}

async function record(change: ChangeWith<'create' | 'update'>, post: Post, applied: PostShape, context: ExecuteContext): Promise<void> {
  // A slot post keeps the time it was applied with: a new post never moves it.
  const slotAt = change.slot === undefined || applied.scheduledAt === null ? {} : { slotAt: applied.scheduledAt };
  const sources = change.sources === undefined ? {} : { sources: change.sources };
  await saved(context, context.store.recordUpdate(change.key, { postId: post.id, file: change.file, appliedHash: shapeHash(applied), remoteUpdatedAt: post.updatedAt, observedHash: observedHash(post, context), appliedAt: context.now().toISOString(), ...slotAt, ...sources }));
}

/**
 * A removed file's post back to draft: `scheduledAt: null`, and the record keeps the post as it now
 * is on the remote (a draft), so the next plan sees it as done. A resumed create is resolved first;
 * a post it returns that is a draft already needs no request.
 */
async function unschedule(change: ChangeWith<'unschedule'>, context: ExecuteContext): Promise<string> {
  if (change.resumesPending) {
    const post = await resendPending(change, context);
    return post.scheduledAt === null ? post.id : toDraft(change, post.id, context);
  }
  return toDraft(change, change.postId, context);
}

async function toDraft(change: ChangeWith<'unschedule'>, postId: string, context: ExecuteContext): Promise<string> {
  const updated = await context.client.updatePost(postId, { scheduledAt: null });
  const appliedHash = observedHash(updated, context);
  await saved(context, context.store.recordUpdate(change.key, { postId, file: change.file, appliedHash, remoteUpdatedAt: updated.updatedAt, observedHash: appliedHash, appliedAt: context.now().toISOString() }));
  return postId;
}

async function move(change: ChangeWith<'move'>, context: ExecuteContext): Promise<string> {
  await saved(context, context.store.moveKey(change.fromKey, change.key, change.file));
  return change.postId;
}

async function remove(change: ChangeWith<'delete'>, context: ExecuteContext): Promise<string | null> {
  let postId = change.postId;
  if (change.resumesPending) postId = (await resendPending(change, context)).id;
  if (postId !== null && !change.stateOnly) {
    try {
      await context.client.deletePost(postId);
    } catch (error) {
      // Already gone is the outcome we wanted.
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
  }
  await saved(context, context.store.removePost(change.key));
  return postId;
}
