import type { Diagnostic } from '../diagnostics.js';
import { summarize } from './planner.js';
import type { Change, Plan } from './types.js';

/**
 * Safety rules that need more than the planner sees:
 * - a file that fails to parse yields no desired post, so its owned post looks removed; it must
 *   never be deleted (or renamed away) because of a typo: the change becomes `blocked`;
 * - a post can only be scheduled in the future: an update to a past time is `blocked`.
 */
export function guardChanges(plan: Plan, context: { diagnostics: readonly Diagnostic[]; now: Date }): Plan {
  const brokenFiles = new Set(context.diagnostics.filter((d) => d.severity === 'error' && d.file).map((d) => d.file!));
  const changes = plan.changes.map((change) => guard(change, brokenFiles, context.now));
  return { ...plan, changes, summary: summarize(changes) };
}

function guard(change: Change, brokenFiles: ReadonlySet<string>, now: Date): Change {
  if (change.action === 'delete' && !change.stateOnly && change.file !== null && brokenFiles.has(change.file)) {
    return { ...change, action: 'blocked', skipped: undefined, reasons: [`${change.file} has errors (see above); its post is left as it is until the file is fixed`] };
  }
  const scheduledAt = change.desired?.scheduledAt;
  const reschedules = change.action === 'update' && change.fields?.some((field) => field.field === 'scheduledAt');
  if (reschedules && scheduledAt && Date.parse(scheduledAt) <= now.getTime()) {
    return { ...change, action: 'blocked', reasons: [`scheduledAt ${scheduledAt} is in the past; a post can only be scheduled in the future`] };
  }
  return change;
}
