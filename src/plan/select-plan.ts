import { desiredByKey, mediaUploads, summarize } from './planner.js';
import type { Plan, PlanInput } from './types.js';
import { NONE_UNCONFIRMED, trustedState } from './unconfirmed-records.js';

/**
 * The part of a finished plan that a selection of post keys names (`--target`): the changes of
 * those keys, a move when either of its keys is named, each exactly as the whole plan has it; the
 * plan's diagnostics stay whole. The uploads are worked out again from the plan's input for the
 * changes kept: a media an adopt left out would have recorded is uploaded. Null selects everything.
 */
export function selectPlan(plan: Plan, selection: readonly string[] | null, input: Pick<PlanInput, 'desired' | 'state'>): Plan {
  if (selection === null) return plan;
  const keys = new Set(selection);
  const changes = plan.changes.filter((change) => keys.has(change.key) || (change.fromKey !== undefined && keys.has(change.fromKey)));
  const state = trustedState(input.state.section, input.state.unconfirmed ?? NONE_UNCONFIRMED);
  return { ...plan, only: [...selection], changes, summary: summarize(changes), uploads: mediaUploads(changes, desiredByKey(input.desired.posts), state) };
}

