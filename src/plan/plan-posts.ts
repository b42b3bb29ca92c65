import { withScheduleFacts } from './schedule-changes.js';
import { guardChanges } from './guards.js';
import { createPlan } from './planner.js';
import type { Plan, PlanInput } from './types.js';
import { NONE_UNCONFIRMED, trustedState } from './unconfirmed-records.js';

/**
 * The plan of every post, from the planner's whole input: every post is paired with its state
 * record and live post (`createPlan`), then the guards block what must not happen (a post with
 * errors is blocked, and a broken file never deletes its post; nothing is scheduled into the past;
 * nothing rests on a record without a valid seal). `selectPlan` keeps the posts `--target` names.
 */
export function planPosts(input: PlanInput): Plan {
  const section = trustedState(input.state.section, input.state.unconfirmed ?? NONE_UNCONFIRMED);
  const trusted = section === input.state.section ? input : { ...input, state: { ...input.state, section } };
  return withScheduleFacts(guardChanges(createPlan(trusted), trusted), input.desired.posts);
}
