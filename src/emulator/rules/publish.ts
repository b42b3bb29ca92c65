import { createHash } from 'node:crypto';
import type { PostStatus, Target } from '../../api/types.js';
import type { AccountRecord, StoredPost } from '../store/model.js';
import { unavailableReason } from './schedule-rules.js';
import type { EmulatorStore, Project } from '../store/store.js';

/** A throttled target is retried this long after the attempt that was throttled. */
export const THROTTLE_RETRY_MS = 15 * 60 * 1000;

const externalPostId = (post: StoredPost, target: Target): string =>
  `${target.platform}_${createHash('sha256').update(`${post.id}/${target.socialAccountId}`).digest('hex').slice(0, 16)}`;

/**
 * One publishing attempt for one target. Target statuses (TargetStatus in src/api/types.ts):
 * `pending` (not yet due), `waiting` (throttled: `waitReason`, `nextAttemptAt`), `published`
 * (`externalPostId`, `publishedAt`), `failed` (`error`). A throttled target publishes on its retry.
 */
function attempt(post: StoredPost, target: Target, account: AccountRecord | undefined, atMs: number): Target {
  const { waitReason: _w, nextAttemptAt: _n, error: _e, ...base } = target;
  const reason = account ? unavailableReason(account) : 'the account no longer exists';
  if (reason) return { ...base, status: 'failed', error: `account unavailable: ${reason}` };
  if (account?.publishBehavior === 'fail') {
    return { ...base, status: 'failed', error: `${target.platform} rejected the post for ${target.handle}: publishing failed (fixture publishBehavior: fail)` };
  }
  if (account?.publishBehavior === 'throttle' && target.status === 'pending') {
    return {
      ...base,
      status: 'waiting',
      waitReason: `${target.platform} rate limit for ${target.handle}; retrying automatically`,
      nextAttemptAt: new Date(atMs + THROTTLE_RETRY_MS).toISOString(),
    };
  }
  return { ...base, status: 'published', externalPostId: externalPostId(post, target), publishedAt: new Date(atMs).toISOString() };
}

/** Post status from its targets: see StoredPost for the meaning of each value. */
function statusOf(targets: readonly Target[]): PostStatus {
  if (targets.some((t) => t.status === 'waiting' || t.status === 'pending')) return 'publishing';
  const published = targets.filter((t) => t.status === 'published').length;
  if (published === targets.length) return 'published';
  return published === 0 ? 'failed' : 'partially_published';
}

function advance(project: Project, post: StoredPost, dueMs: number): StoredPost {
  const due = post.status === 'scheduled';
  const targets = post.targets.map((target) => {
    const isDue = due ? target.status === 'pending' : target.status === 'waiting' && Date.parse(target.nextAttemptAt ?? '') <= dueMs;
    return isDue ? attempt(post, target, project.account(target.socialAccountId), dueMs) : target;
  });
  const status = statusOf(targets);
  const publishedTimes = targets.flatMap((t) => (t.status === 'published' && t.publishedAt ? [t.publishedAt] : []));
  const next: StoredPost = { ...post, targets, status, updatedAt: new Date(dueMs).toISOString() };
  if (publishedTimes.length > 0 && status !== 'publishing') next.publishedAt = publishedTimes.sort().at(-1) as string;
  return next;
}

/**
 * Publishes every post that is due on the emulator clock (scheduled posts, and retries of
 * throttled targets), in due order. Called before each request and after a clock change, so a
 * client never sees a post that should already have been published.
 */
export function publishDue(store: EmulatorStore): number {
  const now = store.clock.now();
  let processed = 0;
  for (let due = store.takeDue(now); due; due = store.takeDue(now)) {
    const project = store.project(due.projectId);
    const post = project.posts.get(due.postId);
    if (!post) continue;
    store.putPost(project.id, advance(project, post, due.dueMs));
    processed++;
  }
  return processed;
}
