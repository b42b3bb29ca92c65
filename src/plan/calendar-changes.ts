import type { DesiredPost } from '../content/types.js';
import type { Change, Plan } from './types.js';

/** The reason `planDesiredPost` gives a create without a state record. */
const NEW_FILE = 'new file';

/**
 * What the calendar policies add to a plan's changes, so that views and apply can tell: the
 * slot a post's time came from (apply records it), and the repeat an occurrence belongs to, also
 * for an owned occurrence the repeat no longer has (a lower `count`, an earlier `until`): its
 * delete says so instead of "removed".
 */
export function withCalendarFacts(plan: Plan, posts: readonly DesiredPost[]): Plan {
  const byKey = new Map<string, DesiredPost>();
  const repeats = new Map<string, string>();
  for (const post of posts) {
    if (post.slot?.taken === undefined && post.occurrence === undefined) continue;
    byKey.set(post.key, post);
    if (post.occurrence !== undefined) repeats.set(post.occurrence.of, post.file);
  }
  let touched = false;
  const changes = plan.changes.map((change) => {
    const annotated = annotate(change, byKey.get(change.key), repeats);
    touched ||= annotated !== change;
    return annotated;
  });
  return touched ? { ...plan, changes } : plan;
}

function annotate(change: Change, post: DesiredPost | undefined, repeats: ReadonlyMap<string, string>): Change {
  if (post === undefined) return change.action === 'delete' || change.action === 'unschedule' || change.action === 'noop' ? surplusOccurrence(change, repeats) : change;
  const taken = post.slot?.taken;
  const executed = change.action === 'create' || change.action === 'update';
  // The planner says "new file" of a post no state record has: for an occurrence, the file may be old.
  const reasons = post.occurrence === undefined ? change.reasons : change.reasons.map((reason) => (reason === NEW_FILE ? `new occurrence (${post.occurrence!.date})` : reason));
  return {
    ...change,
    reasons,
    ...(taken === undefined || post.shape.scheduledAt === null ? {} : { slot: { slot: taken.slot, scheduledAt: post.shape.scheduledAt, source: taken.source } }),
    ...(post.occurrence === undefined ? {} : { occurrence: post.occurrence }),
    ...(taken !== undefined && executed ? { reasons: [...reasons, `time from slot ${taken.slot}: ${taken.wall}, ${taken.source === 'recorded' ? 'kept from the last apply' : 'the earliest free one'}`] } : {}),
  };
}

/** The delete, unschedule or kept draft of an owned occurrence its repeat no longer has. */
function surplusOccurrence(change: Change, repeats: ReadonlyMap<string, string>): Change {
  // `<key>@<YYYY-MM-DD>`: the key of an occurrence.
  const match = /^(.+)@(\d{4}-\d{2}-\d{2})$/.exec(change.key);
  // `repeats` maps to files: a delete without a file never matches one.
  if (match === null || repeats.get(match[1]!) !== change.file || change.stateOnly) return change;
  const [, of, date] = match;
  const why = `${date} is no longer an occurrence of the repeat in ${change.file}`;
  const draft = change.action === 'unschedule' ? ': it goes back to draft on the remote (--prune deletes it)' : change.action === 'noop' ? ': it stays a draft on the remote (--prune deletes it)' : '';
  return { ...change, occurrence: { of: of!, date: date! }, reasons: [`${why}${draft}`] };
}
