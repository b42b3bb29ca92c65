import { randomUUID } from 'node:crypto';
import type { Target } from '../../api/types.js';
import { ErrorCodes } from '../../api/error-codes.js';
import { requirePermission } from '../http/auth.js';
import type { ApiCall, Route } from '../http/context.js';
import { ApiError, notFound, ok, type Reply } from '../protocol/envelope.js';
import { withIdempotency } from '../http/idempotency.js';
import { EDITABLE_STATUSES, type StoredMedia, type StoredPost } from '../store/model.js';
import { listPosts } from './post-list.js';
import { parsePostInput } from '../rules/post-input.js';
import { checkPublishable } from '../rules/schedule-rules.js';
import type { Project } from '../store/store.js';
import { buildTargets } from '../rules/targets.js';
import { Violations, isPlainObject, isUuid } from '../protocol/validate.js';
import { postView } from './views.js';

const needsPublish = 'scheduling, or editing a scheduled post, needs it in addition to posts-write';

function findPost(call: ApiCall): StoredPost {
  const id = call.params.id ?? '';
  if (!isUuid(id)) throw new ApiError(400, ErrorCodes.validationFailed, ['id must be a uuid']);
  const post = call.project.posts.get(id.toLowerCase());
  if (!post) throw notFound(`post ${id}`);
  return post;
}

/** mediaIds must name completed uploads of the caller's project. */
function resolveMedia(project: Project, ids: readonly string[], violations: Violations): StoredMedia[] {
  const media: StoredMedia[] = [];
  ids.forEach((id, i) => {
    const item = project.media.get(id);
    if (!item) violations.add(`mediaIds[${i}] ${id} is not a media object of this project`);
    else if (item.state !== 'completed') violations.add(`mediaIds[${i}] ${id} is not a completed upload (call POST /media/${id}/complete first)`);
    else media.push(item);
  });
  return media;
}

/** Whether a raw body asks for a schedule (checked before validation: the permission comes first). */
const setsSchedule = (body: unknown): boolean => isPlainObject(body) && body.scheduledAt !== undefined && body.scheduledAt !== null;

/**
 * Validates a create or edit body and applies it onto a post (an empty draft for a create): shape
 * rules, then accounts, options and media, then, when the result is scheduled, the per-account
 * publishing rules. Answers 400 with every violation found.
 */
function applyBody(call: ApiCall, base: StoredPost, body: unknown, mode: 'create' | 'edit'): StoredPost {
  const { project } = call;
  const violations = new Violations();
  const input = parsePostInput(body, mode, call.services.clock.now(), violations);
  const targets: Target[] = input.targets ? buildTargets(project, input.targets, violations) : base.targets;
  const mediaIds = input.mediaIds ?? base.mediaIds;
  const media = resolveMedia(project, mediaIds, violations);
  const scheduledAt = input.scheduledAt === undefined ? base.scheduledAt : input.scheduledAt;
  const content = input.content ?? base.content;
  if (scheduledAt !== null && !violations.any) checkPublishable(project, { content, targets, media }, violations);
  violations.throwIfAny();
  const now = call.services.clock.nowIso();
  return { ...base, content, targets, mediaIds, scheduledAt, status: scheduledAt === null ? 'draft' : 'scheduled', updatedAt: now };
}

async function createPost(call: ApiCall): Promise<Reply> {
  requirePermission(call.caller, 'posts-write');
  const body = call.json();
  return withIdempotency(call, body, async () => {
    if (setsSchedule(body)) requirePermission(call.caller, 'posts-publish', needsPublish);
    const now = call.services.clock.nowIso();
    const empty: StoredPost = { id: randomUUID(), status: 'draft', content: '', scheduledAt: null, createdAt: now, updatedAt: now, targets: [], mediaIds: [] };
    const post: StoredPost = { ...applyBody(call, empty, body, 'create'), updatedAt: now };
    // Made durable with its Idempotency-Key (one journal line): a retry finds the post, never makes a second.
    call.services.store.putPost(call.project.id, post);
    return ok(postView(post, call.project, call.services.origin), 201);
  });
}

function getPost(call: ApiCall): Reply {
  requirePermission(call.caller, 'posts-read');
  return ok(postView(findPost(call), call.project, call.services.origin));
}

function assertEditable(post: StoredPost, verb: string): void {
  if (EDITABLE_STATUSES.includes(post.status)) return;
  throw new ApiError(409, ErrorCodes.postNotEditable, `post ${post.id} is ${post.status}; only draft and scheduled posts can be ${verb}`);
}

async function patchPost(call: ApiCall): Promise<Reply> {
  requirePermission(call.caller, 'posts-write');
  const post = findPost(call);
  const body = call.json();
  assertEditable(post, 'edited');
  if (post.status === 'scheduled' || setsSchedule(body)) requirePermission(call.caller, 'posts-publish', needsPublish);
  const updated = applyBody(call, post, body, 'edit');
  call.services.store.putPost(call.project.id, updated);
  await call.services.commit();
  return ok(postView(updated, call.project, call.services.origin));
}

async function deletePost(call: ApiCall): Promise<Reply> {
  requirePermission(call.caller, 'posts-delete');
  const post = findPost(call);
  assertEditable(post, 'deleted');
  call.services.store.deletePost(call.project.id, post.id);
  await call.services.commit();
  return ok({ deleted: true });
}

function listPostsRoute(call: ApiCall): Reply {
  requirePermission(call.caller, 'posts-read');
  const page = listPosts(call.project, call.query);
  return ok({ items: page.items.map((post) => postView(post, call.project, call.services.origin)), nextCursor: page.nextCursor });
}

export const postRoutes: Route[] = [
  { method: 'POST', path: '/posts', handler: createPost },
  { method: 'GET', path: '/posts', handler: listPostsRoute },
  { method: 'GET', path: '/posts/:id', handler: getPost },
  { method: 'PATCH', path: '/posts/:id', handler: patchPost },
  { method: 'DELETE', path: '/posts/:id', handler: deletePost },
];
