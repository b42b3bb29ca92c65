import { hasErrors } from '../diagnostics.js';
import { compareChanges, desiredByKey, mediaUploads, summarize } from './planner.js';
import { blockForeign, NO_FOREIGN_OWNERS } from './foreign-owners.js';
import { blockPostsWithErrors } from './posts-with-errors.js';
import type { Change, Plan, PlanInput } from './types.js';
import { blockShared, blockUnconfirmed, NONE_UNCONFIRMED, sharedPostRecords } from './unconfirmed-records.js';

/**
 * Safety rules that need more than the planner sees:
 * - a post with error diagnostics is blocked, and only that post (posts-with-errors.ts): a file
 *   that fails to parse never makes its owned post look deleted, a post that breaks its accounts'
 *   rules is never sent;
 * - a post can only be scheduled in the future: an update to a past time is `blocked`;
 * - a change resting on a state record without a valid seal, or on one of two records of one post,
 *   is `blocked` (unconfirmed-records.ts);
 * - a change on a post another calendar of the repository records is `blocked` (foreign-owners.ts).
 * Blocked changes upload nothing, so the uploads are worked out again when a change was blocked.
 * `input.state.section` is the state as trusted (`trustedState`).
 */
export function guardChanges(plan: Plan, input: PlanInput): Plan {
  const { desired, state } = input;
  const shared = sharedPostRecords(state.section);
  const unconfirmed = state.unconfirmed ?? NONE_UNCONFIRMED;
  let changes = plan.changes.map((change) => blockForeign(blockShared(blockUnconfirmed(guardSchedule(change, input), unconfirmed), shared), state.foreignOwners ?? NO_FOREIGN_OWNERS));
  const diagnostics = [...desired.contentDiagnostics, ...desired.checkDiagnostics];
  if (hasErrors(diagnostics) || desired.invalid.length > 0 || desired.held.length > 0) {
    changes = blockPostsWithErrors(changes, {
      diagnostics,
      invalidFiles: desired.invalid,
      held: desired.held,
      postKeys: new Set(desired.posts.map((post) => post.key)),
      postFiles: new Set([...desired.posts.map((post) => post.file), ...desired.invalid.map((invalid) => invalid.file), ...desired.held.map((held) => held.file)]),
      state: state.section,
    });
  }
  // `changes` maps the plan's changes, then may add blocked changes of its own, which none of the plan's is.
  if (changes.every((change, index) => change === plan.changes[index])) return plan;
  changes.sort(compareChanges);
  return { ...plan, changes, summary: summarize(changes), uploads: mediaUploads(changes, desiredByKey(desired.posts), state.section) };
}

function guardSchedule(change: Change, { now, timezone }: Pick<PlanInput, 'now' | 'timezone'>): Change {
  const scheduledAt = change.desired?.scheduledAt;
  const reschedules = change.action === 'update' && change.fields?.some((field) => field.field === 'scheduledAt');
  if (reschedules && scheduledAt && Date.parse(scheduledAt) <= now.getTime()) {
    return { ...change, action: 'blocked', reason: 'scheduled-in-past', details: [{ code: 'scheduled-in-past', scheduledAt, timezone }] };
  }
  return change;
}
