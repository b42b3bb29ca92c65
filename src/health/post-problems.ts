import pLimit from 'p-limit';
import { ApiError, type ApiClient } from '../api/index.js';
import type { Post } from '../api/types.js';
import { isEditable } from '../plan/plan-context.js';
import { liveShape, mediaIdIndex } from '../plan/live-shape.js';
import { changedOnRemote } from '../plan/remote-change.js';
import type { ProjectState } from '../state/types.js';

/** Capability reads in flight at once: few accounts, one small GET each. */
const CAPABILITY_CONCURRENCY = 4;

/**
 * Something wrong with a managed post that needs a person: `drifted` (changed or deleted on the
 * remote since postsync last wrote it), `failed` / `partially-published` (publishing went wrong
 * for some or all accounts), `blocked` (it cannot be published: an account is unavailable).
 */
export interface PostProblem {
  kind: 'drifted' | 'failed' | 'partially-published' | 'blocked';
  message: string;
  /** The account concerned, when there is one (its id). */
  socialAccountId?: string;
}

/** Account availability by id; `null` for an account the project does not know. */
async function availability(client: ApiClient, ids: Iterable<string>): Promise<Map<string, { available: boolean; reason?: string } | null>> {
  const limit = pLimit(CAPABILITY_CONCURRENCY);
  const found = new Map<string, { available: boolean; reason?: string } | null>();
  await Promise.all(
    [...new Set(ids)].map((id) =>
      limit(async () => {
        try {
          const capabilities = await client.capabilities(id);
          found.set(id, { available: capabilities.available, ...(capabilities.reason === undefined ? {} : { reason: capabilities.reason }) });
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) found.set(id, null);
          else throw error;
        }
      }),
    ),
  );
  return found;
}

function failedTargets(post: Post, label: (id: string) => string): PostProblem[] {
  return post.targets
    .filter((target) => target.status === 'failed')
    .map((target) => ({ kind: 'failed', socialAccountId: target.socialAccountId, message: `${label(target.socialAccountId)}: ${target.error ?? 'publishing failed'}` }));
}

/**
 * The problems of each managed post of a state section (by key; posts without problems are left
 * out), from one listing of the remote posts and one capabilities read per account that an
 * editable managed post targets. Posts in `unread` (recorded final, not read) have none. A post whose state entry is marked `reread` is not judged for
 * drift: its applied hash is not to be trusted.
 */
export async function findPostProblems(input: { client: ApiClient; section: ProjectState; live: readonly Post[]; unread?: ReadonlySet<string>; label?: (accountId: string) => string }): Promise<Map<string, PostProblem[]>> {
  const label = input.label ?? ((id: string) => `account ${id}`);
  const byId = new Map(input.live.map((post) => [post.id, post]));
  const shaOfMediaId = mediaIdIndex(input.section);
  const owned = Object.entries(input.section.posts).map(([key, record]) => ({ key, record, live: byId.get(record.postId) }));
  const accounts = await availability(input.client, owned.flatMap(({ live }) => (live && isEditable(live) ? live.targets.map((target) => target.socialAccountId) : [])));
  const problems = new Map<string, PostProblem[]>();
  for (const { key, record, live } of owned) {
    const found: PostProblem[] = [];
    // Recorded final by an apply and not read again: published, so nothing to fix.
    if (live === undefined && input.unread?.has(record.postId) === true) continue;
    if (live === undefined) found.push({ kind: 'drifted', message: 'deleted on the remote since the last apply' });
    else if (live.status === 'failed') found.push({ kind: 'failed', message: 'publishing failed for every account' }, ...failedTargets(live, label));
    else if (live.status === 'partially_published') found.push({ kind: 'partially-published', message: 'published to some accounts only' }, ...failedTargets(live, label));
    else {
      found.push(...failedTargets(live, label));
      if (isEditable(live)) {
        // Untouched since the last apply (same `updatedAt`), as the plan judges it: a value the service fills in is no drift.
        const untouched = live.updatedAt === record.remoteUpdatedAt;
        if (record.reread !== true && !untouched && changedOnRemote(record, liveShape(live, shaOfMediaId))) {
          found.push({ kind: 'drifted', message: 'changed on the remote since the last apply (`postsync plan` shows what differs; apply puts the file back)' });
        }
        for (const target of live.targets) {
          const account = accounts.get(target.socialAccountId);
          if (account === null) found.push({ kind: 'blocked', socialAccountId: target.socialAccountId, message: `${label(target.socialAccountId)} is not connected to this project` });
          else if (account?.available === false) found.push({ kind: 'blocked', socialAccountId: target.socialAccountId, message: `${label(target.socialAccountId)} is unavailable: ${account.reason ?? 'no reason given'}` });
        }
      }
    }
    if (found.length > 0) problems.set(key, found);
  }
  return problems;
}
