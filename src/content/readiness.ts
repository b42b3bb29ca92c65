import { NOT_READY_PREFIX, type Diagnostic } from '../diagnostics.js';

/** Whether a draft could be scheduled as it is, and what it still needs when not. */
export interface Readiness {
  ready: boolean;
  /** What is missing, each as a short phrase (empty exactly when `ready`). */
  missing: string[];
}

/** What a draft that names no account needs (a readiness warning of its file): scheduling it is an error. */
export const NEEDS_AN_ACCOUNT = 'needs an account under `targets:`';

/**
 * The one definition of a draft "ready to schedule", which validate, plan, watch, status and the
 * calendar (page and JSON) all use: its file has no error, and nothing that scheduling it would make
 * an error is left: the readiness warnings of its file (what the publishing rules of its accounts
 * still ask for, and an account at all: `NEEDS_AN_ACCOUNT`). Scheduling a ready draft as it is
 * gives no error; scheduling one that is not does.
 */
export function draftReadiness(draft: { diagnostics: readonly Diagnostic[] }): Readiness {
  const missing: string[] = [];
  const errors = draft.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
  if (errors > 0) missing.push(errors === 1 ? 'the error in its file fixed' : `the ${errors} errors in its file fixed`);
  for (const diagnostic of draft.diagnostics) if (isReadinessWarning(diagnostic)) missing.push(diagnostic.message.slice(NOT_READY_PREFIX.length));
  return { ready: missing.length === 0, missing };
}

function isReadinessWarning(diagnostic: Diagnostic): boolean {
  return diagnostic.readiness === true && diagnostic.severity === 'warning' && diagnostic.message.startsWith(NOT_READY_PREFIX);
}
