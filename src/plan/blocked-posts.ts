import type { Change, Plan } from './types.js';

/** The changes blocked because a file has errors (the guards give them its `diagnostics`). */
export function blockedByErrors(plan: Pick<Plan, 'changes'>): Change[] {
  return plan.changes.filter((change) => change.action === 'blocked' && change.diagnostics !== undefined);
}
