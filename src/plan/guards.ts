import type { DesiredPost, InvalidFile } from '../content/types.js';
import { hasErrors, type Diagnostic } from '../diagnostics.js';
import type { UnconfirmedRecords } from '../state/seal.js';
import type { TargetState } from '../state/types.js';
import { compareChanges, mediaUploads, summarize } from './planner.js';
import { blockForeign, NO_FOREIGN_OWNERS, type ForeignOwners } from './foreign-owners.js';
import { blockPostsWithErrors } from './posts-with-errors.js';
import type { Change, Plan } from './types.js';
import { blockShared, blockUnconfirmed, sharedPostRecords } from './unconfirmed-records.js';

export interface GuardContext {
  /** Every diagnostic of the plan: the files' own and the account-rule checks. */
  diagnostics: readonly Diagnostic[];
  /** Files that yield no post because of their errors. */
  invalidFiles: readonly InvalidFile[];
  /** The posts planned (their media are what the plan uploads). */
  posts: readonly DesiredPost[];
  /** The state as trusted (`trustedState`). */
  state: TargetState;
  /** The state records without a valid seal. */
  unconfirmed: UnconfirmedRecords;
  /** The posts other calendars of the repository record; absent: none. */
  foreignOwners?: ForeignOwners;
  only: readonly string[] | null;
  now: Date;
  /** The project's time zone: the times a change names are read on its clock. */
  timezone: string;
}

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
 */
export function guardChanges(plan: Plan, context: GuardContext): Plan {
  const shared = sharedPostRecords(context.state);
  let changes = plan.changes.map((change) => blockForeign(blockShared(blockUnconfirmed(guardSchedule(change, context), context.unconfirmed), shared), context.foreignOwners ?? NO_FOREIGN_OWNERS));
  if (hasErrors(context.diagnostics) || context.invalidFiles.length > 0) {
    changes = blockPostsWithErrors(changes, {
      ...context,
      postKeys: new Set(context.posts.map((post) => post.key)),
      postFiles: new Set([...context.posts.map((post) => post.file), ...context.invalidFiles.map((invalid) => invalid.file)]),
    });
  }
  // `changes` maps the plan's changes, then may add blocked changes of its own, which none of the plan's is.
  if (changes.every((change, index) => change === plan.changes[index])) return plan;
  changes.sort(compareChanges);
  const desired = new Map(context.posts.map((post) => [post.key, post]));
  return { ...plan, changes, summary: summarize(changes), uploads: mediaUploads(changes, desired, context.state) };
}

function guardSchedule(change: Change, { now, timezone }: Pick<GuardContext, 'now' | 'timezone'>): Change {
  const scheduledAt = change.desired?.scheduledAt;
  const reschedules = change.action === 'update' && change.fields?.some((field) => field.field === 'scheduledAt');
  if (reschedules && scheduledAt && Date.parse(scheduledAt) <= now.getTime()) {
    return { ...change, action: 'blocked', reason: 'scheduled-in-past', details: [{ code: 'scheduled-in-past', scheduledAt, timezone }] };
  }
  return change;
}
