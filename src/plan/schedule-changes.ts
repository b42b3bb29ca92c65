import type { DesiredPost } from '../content/types.js';
import { occurrenceOfKey } from '../repeats/index.js';
import { STAYS_PUBLISHED } from './removed-changes.js';
import type { Change, Plan } from './types.js';

/**
 * What the schedule policies add to a plan's changes, so that views and apply can tell: the
 * slot a post's time came from (apply records it), and the repeat an occurrence belongs to, also
 * for an owned occurrence the repeat no longer has (a lower `count`, an earlier `until`): its
 * delete says so instead of "removed". Acts on the changes' codes and fields, never on their prose.
 */
export function withScheduleFacts(plan: Plan, posts: readonly DesiredPost[]): Plan {
  const byKey = new Map<string, DesiredPost>();
  const repeats = new Map<string, string>();
  for (const post of posts) {
    if (post.slot?.taken === undefined && post.occurrence === undefined) continue;
    byKey.set(post.key, post);
    if (post.occurrence !== undefined) repeats.set(post.occurrence.of, post.file);
  }
  let annotatedAny = false;
  const changes = plan.changes.map((change) => {
    const annotated = annotate(change, byKey.get(change.key), repeats);
    annotatedAny ||= annotated !== change;
    return annotated;
  });
  return annotatedAny ? { ...plan, changes } : plan;
}

function annotate(change: Change, post: DesiredPost | undefined, repeats: ReadonlyMap<string, string>): Change {
  if (post === undefined) return surplusOccurrence(change, repeats);
  const taken = post.slot?.taken;
  const executed = change.action === 'create' || change.action === 'update';
  return {
    ...change,
    ...(taken === undefined || post.shape.scheduledAt === null ? {} : { slot: { slot: taken.slot, scheduledAt: post.shape.scheduledAt, source: taken.source } }),
    ...(post.occurrence === undefined ? {} : { occurrence: post.occurrence }),
    ...(taken !== undefined && executed ? { reasons: [...change.reasons, `time from slot ${taken.slot}: ${taken.wall}, ${taken.source === 'recorded' ? 'kept from the last apply' : 'the earliest free one'}`] } : {}),
  };
}

/** The delete, unschedule or kept draft of an owned occurrence its repeat no longer has. */
function surplusOccurrence(change: Change, repeats: ReadonlyMap<string, string>): Change {
  if (change.action !== 'delete' && change.action !== 'unschedule' && change.action !== 'noop') return change;
  // Only a post whose file is gone or whose occurrence is: a forgotten record (`gone-on-remote`) or an up-to-date noop is not one.
  if (change.reason !== 'file-removed' && change.reason !== 'published-kept') return change;
  const occurrence = occurrenceOfKey(change.key);
  // `repeats` maps to files: a change without a file never matches one.
  if (occurrence === undefined || repeats.get(occurrence.of) !== change.file) return change;
  const why = `${occurrence.date} is no longer an occurrence of the repeat in ${change.file}`;
  // A published occurrence keeps its code: it is no change whatever the repeat says now.
  if (change.reason === 'published-kept') return { ...change, occurrence, reasons: [`${why}: ${STAYS_PUBLISHED}`] };
  const draft = change.action === 'unschedule' ? ': it goes back to draft on the remote (--prune deletes it)' : change.action === 'noop' ? ': it stays a draft on the remote (--prune deletes it)' : '';
  return { ...change, reason: 'occurrence-removed', occurrence, reasons: [`${why}${draft}`] };
}
