import type { Post } from '../api/types.js';
import { InputError, StalePlanError } from '../errors.js';
import { describeSchemaErrors } from '../text/schema-errors.js';
import type { Change, Plan, RemoteProject } from './types.js';

/**
 * Reads a plan file (`serializePlan` in src/plan-words writes it); anything that is not a valid
 * formatVersion 1 plan is an InputError, one written by an earlier postsync a StalePlanError. The
 * changes' `reasons` are sentences for people: the plan keeps their `details`, the words are made again.
 */
export async function parsePlan(text: string, options: { source?: string } = {}): Promise<Plan> {
  const source = options.source ?? 'the plan file';
  const hint = 'Create it again with `postsync plan --out <file>`.';
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${source} is not valid JSON: ${(error as Error).message}`, { hint, cause: error });
  }
  const version = (data as { formatVersion?: unknown } | null)?.formatVersion;
  if (version !== 1) {
    throw new InputError(`${source} has formatVersion ${JSON.stringify(version) ?? 'missing'}; this postsync reads formatVersion 1`, {
      hint,
    });
  }
  refuseFromEarlierPostsync(data, { source, hint });
  // Loaded here: a plan file is read only by `apply <file>`, and the validator is large.
  const { validatePlan } = await import('../generated/file-validators.js');
  if (!validatePlan(data)) {
    throw new InputError(`${source} is not a valid postsync plan:\n  ${describeSchemaErrors(validatePlan.errors).join('\n  ')}`, {
      hint,
    });
  }
  const plan = data as Plan;
  return { ...plan, changes: plan.changes.map((change) => withoutSentences(change as Change & { reasons?: unknown })) };
}

function withoutSentences({ reasons, ...change }: Change & { reasons?: unknown }): Change {
  return change as Change;
}

/**
 * Every change of a plan carries its reason code and its details; a plan file whose changes do not
 * was written by an earlier postsync, against a state and remote that have moved on since: it is
 * stale, not broken.
 */
function refuseFromEarlierPostsync(data: unknown, { source, hint }: { source: string; hint: string }): void {
  const changes = (data as { changes?: unknown }).changes;
  if (!Array.isArray(changes)) return;
  for (const [field, what] of [['reason', 'reason code'], ['details', 'reason details']] as const) {
    const before = changes.find((change: unknown) => typeof change === 'object' && change !== null && !(field in change));
    if (before === undefined) continue;
    const key = (before as { key?: unknown }).key;
    throw new StalePlanError(`${source} was written by an earlier postsync: its change of ${typeof key === 'string' ? key : 'some post'} carries no ${what}`, { hint });
  }
}

/** Changes whose remote post apply will write to: the ones checked for freshness. */
function remoteWrites(plan: Plan): Change[] {
  return plan.changes.filter(
    (change) =>
      change.postId !== null &&
      !change.stateOnly &&
      (change.action === 'update' || change.action === 'unschedule' || change.action === 'delete'),
  );
}

/**
 * Ids of the remote posts `checkPlanFresh` needs: the posts the plan updates, unschedules or deletes. Apply
 * fetches just these instead of listing every post again.
 */
export function postIdsToCheck(plan: Plan): string[] {
  return [...new Set(remoteWrites(plan).map((change) => change.postId as string))];
}

export interface FreshnessInput {
  plan: Plan;
  currentStateHash: string;
  currentProject: RemoteProject;
  /** Every id of `postIdsToCheck(plan)`: the post now, or null if it is gone. A missing entry counts as gone. */
  livePosts: Map<string, Post | null>;
}

/**
 * Refuses a plan made for another target, against another state, or whose remote posts changed
 * since planning (their `updatedAt` moved, or they are gone). Throws StalePlanError naming every
 * stale key at once.
 */
export function checkPlanFresh({ plan, currentStateHash, currentProject: currentTarget, livePosts }: FreshnessInput): void {
  const planned = plan.target;
  if (planned.id !== currentTarget.id || planned.projectId !== currentTarget.projectId || planned.local !== currentTarget.local) {
    throw new StalePlanError(`the plan was made for ${describeTarget(planned)}, not ${describeTarget(currentTarget)}`, {
      hint: 'Run `postsync plan` against this target and review the new plan.',
    });
  }
  if (plan.stateHash !== currentStateHash) {
    throw new StalePlanError('the state file changed since the plan was made (another apply ran, or it was edited)');
  }
  const stale: string[] = [];
  for (const change of remoteWrites(plan)) {
    const live = livePosts.get(change.postId as string) ?? null;
    if (live === null) stale.push(`${change.key} (post deleted on the remote)`);
    else if (live.updatedAt !== change.liveUpdatedAt) stale.push(`${change.key} (post changed on the remote)`);
  }
  if (stale.length > 0) {
    throw new StalePlanError(`the plan is stale; remote posts changed since planning: ${stale.join(', ')}`);
  }
}

function describeTarget(target: RemoteProject): string {
  return target.local ? `the local API (project ${target.projectId})` : `${target.apiUrl} (project ${target.projectId})`;
}
