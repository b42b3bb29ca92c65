import type { DesiredPost } from '../content/types.js';
import type { Change, Plan } from './types.js';

/**
 * What the schedule policies add to a plan's changes, so that views and apply can tell: the slot a
 * post's time came from (apply records it; an executed change says so in its details), and the
 * repeat an occurrence belongs to. An owned occurrence the repeat no longer has is the planner's
 * (`occurrence-removed`, removed-changes.ts). Acts on the changes' codes and fields only.
 */
export function withScheduleFacts(plan: Plan, posts: readonly DesiredPost[]): Plan {
  const byKey = new Map<string, DesiredPost>();
  for (const post of posts) {
    if (post.slot?.taken === undefined && post.occurrence === undefined) continue;
    byKey.set(post.key, post);
  }
  if (byKey.size === 0) return plan;
  let annotatedAny = false;
  const changes = plan.changes.map((change) => {
    const post = byKey.get(change.key);
    if (post === undefined) return change;
    annotatedAny = true;
    return annotate(change, post);
  });
  return annotatedAny ? { ...plan, changes } : plan;
}

function annotate(change: Change, post: DesiredPost): Change {
  const taken = post.slot?.taken;
  const executed = change.action === 'create' || change.action === 'update';
  return {
    ...change,
    ...(taken === undefined || post.shape.scheduledAt === null ? {} : { slot: { slot: taken.slot, scheduledAt: post.shape.scheduledAt, source: taken.source } }),
    ...(post.occurrence === undefined ? {} : { occurrence: post.occurrence }),
    ...(taken !== undefined && executed ? { details: [...change.details, { code: 'slot' as const, slot: taken.slot, wall: taken.wall, source: taken.source }] } : {}),
  };
}
