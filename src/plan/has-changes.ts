import type { Plan } from './types.js';

/** True when applying the plan would send or record anything. */
export function hasChanges(plan: Plan): boolean {
  return plan.uploads.length > 0 || plan.changes.some((change) => change.action !== 'noop' && change.action !== 'blocked');
}
