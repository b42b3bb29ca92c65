import { summarize } from '../plan/planner.js';
import type { Change, LivePostsById, Plan } from '../plan/types.js';
import type { ProjectState } from '../state/types.js';

export interface DraftContext {
  /** The remote posts the plan was made against. */
  live: LivePostsById;
  section: ProjectState;
  /** Changes to leave out (e.g. the same change already failed once). */
  exclude?: (change: Change) => boolean;
}

/**
 * Whether a change touches drafts only: a create without scheduledAt, or an update of a post that
 * is a draft with no schedule on either side. Scheduling, unscheduling, deletes and moves never
 * are; neither is a change of a file with errors (the API would refuse it on every save).
 */
export function isDraftOnly(change: Change, context: DraftContext & { brokenFiles: ReadonlySet<string> }): boolean {
  if (change.desired === undefined || change.desired.scheduledAt !== null) return false;
  if (change.file !== null && context.brokenFiles.has(change.file)) return false;
  if (change.action === 'create') {
    const pending = change.resumesPending ? context.section.pending[change.key] : undefined;
    if (pending !== undefined && (pending.payload.scheduledAt ?? null) !== null) return false;
    // A resumed create that takes the post it made: only while that post is a draft, or taking it would unschedule it.
    const made = change.postId === null ? undefined : context.live.get(change.postId);
    return change.postId === null || (made !== undefined && made.status === 'draft' && made.scheduledAt === null);
  }
  if (change.action === 'update') {
    const live = change.postId === null ? undefined : context.live.get(change.postId);
    const touchesSchedule = change.fields?.some((field) => field.field === 'scheduledAt') === true;
    return live !== undefined && live.status === 'draft' && live.scheduledAt === null && !touchesSchedule;
  }
  return false;
}

/**
 * The part of `plan` that `--apply-drafts` applies on its own: its draft-only changes and the
 * uploads they need. Null when there is none.
 */
export function draftOnlyPlan(plan: Plan, context: DraftContext): Plan | null {
  const brokenFiles = new Set(plan.diagnostics.filter((d) => d.severity === 'error' && d.file !== undefined).map((d) => d.file!));
  const changes = plan.changes.filter((change) => isDraftOnly(change, { ...context, brokenFiles }) && context.exclude?.(change) !== true);
  if (changes.length === 0) return null;
  const keys = new Set(changes.map((change) => change.key));
  const uploads = plan.uploads
    .map((upload) => ({ ...upload, usedBy: upload.usedBy.filter((key) => keys.has(key)) }))
    .filter((upload) => upload.usedBy.length > 0);
  return { ...plan, changes, uploads, summary: summarize(changes) };
}
