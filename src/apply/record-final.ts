import type { LivePostsById, Plan } from '../plan/types.js';
import { isFinalStatus } from '../plan/final-status.js';
import type { StateStore } from '../state/state-store.js';

/**
 * Records in the state the final status (`published`) of each owned post a plan found as applied
 * (a noop) and final, with the `updatedAt` it was seen at, so that later plans need not read it
 * while its file stays as applied. Only noops: their records stay true to the remote post, and a
 * post whose file changed is read again anyway. Returns how many records changed.
 */
export async function recordFinalStatuses(input: { plan: Plan; live: LivePostsById; store: StateStore }): Promise<number> {
  const { store } = input;
  let recorded = 0;
  for (const change of input.plan.changes) {
    if (change.action !== 'noop' || change.postId === null || change.postId === undefined) continue;
    const record = store.section.posts[change.key];
    const live = input.live.get(change.postId);
    if (record === undefined || record.postId !== change.postId || live === undefined || !isFinalStatus(live.status)) continue;
    if (record.final === live.status && record.remoteUpdatedAt === live.updatedAt) continue;
    await store.recordUpdate(change.key, { ...record, final: live.status, remoteUpdatedAt: live.updatedAt });
    recorded += 1;
  }
  if (recorded > 0) await store.checkpoint();
  return recorded;
}
