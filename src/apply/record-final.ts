import type { LivePostsById, Plan } from '../plan/types.js';
import { isFinalStatus } from '../plan/final-status.js';
import { liveShape, mediaIdIndex } from '../plan/live-shape.js';
import { shapeHash } from '../content/shape-hash.js';
import type { StateStore } from '../state/state-store.js';

/**
 * Records in the state what a plan saw of each owned post it found as applied (a noop), so that
 * later plans know it without comparing again: its final status (`published`) with the `updatedAt`
 * it was seen at, so that later plans need not read it while its file stays as applied; and, for a
 * record from before observed shapes, the live shape as observed (`PostRecord.observedHash`: the
 * noop says it is the file, tidying aside). Only noops: their records stay true to the remote post,
 * and a post whose file changed is read again anyway. Returns how many records changed.
 */
export async function recordFinalStatuses(input: { plan: Plan; live: LivePostsById; store: StateStore }): Promise<number> {
  const { store } = input;
  let recorded = 0;
  for (const change of input.plan.changes) {
    if (change.action !== 'noop' || change.postId === null || change.postId === undefined) continue;
    const record = store.section.posts[change.key];
    const live = input.live.get(change.postId);
    if (record === undefined || record.postId !== change.postId || live === undefined) continue;
    const final = isFinalStatus(live.status) && (record.final !== live.status || record.remoteUpdatedAt !== live.updatedAt);
    const observed = record.observedHash === undefined && record.reread !== true;
    if (!final && !observed) continue;
    await store.recordUpdate(change.key, {
      ...record,
      ...(final ? { final: live.status, remoteUpdatedAt: live.updatedAt } : {}),
      ...(observed ? { observedHash: shapeHash(liveShape(live, mediaIdIndex(store.section))) } : {}),
    });
    recorded += 1;
  }
  if (recorded > 0) await store.checkpoint();
  return recorded;
}
