import type { ApiClient } from '../api/index.js';
import { applyPlan } from '../apply/apply-plan.js';
import type { ApplyListener, ApplyResult } from '../apply/events.js';
import type { Plan } from '../plan/types.js';
import { acquireLock, type LockOwner } from '../state/lock.js';
import type { StateSeal } from '../state/seal.js';
import { StateStore } from '../state/state-store.js';

export type DraftApplyOutcome =
  /** `result` says what was done; `stateHash` is the state section's hash afterwards. */
  | { applied: true; result: ApplyResult; stateHash: string }
  /** The state file changed since the plan was made (another run applied): nothing was done. */
  | { applied: false };

export interface DraftApplyOptions {
  /** A plan of draft-only changes (`draftOnlyPlan`). */
  plan: Plan;
  client: ApiClient;
  statePath: string;
  seal: StateSeal;
  root: string;
  onEvent?: ApplyListener;
  onStaleLock?: (previous: LockOwner) => void;
  /** The project's time zone: a held lock's error names times on its clock. */
  timezone: string;
}

/**
 * Applies a draft-only plan holding the state lock for just that long. A plan made from a state
 * that has moved since is not applied: it could create a post another run already created.
 * A lock held by another run is a LockedError for the caller to report.
 */
export async function applyDrafts(options: DraftApplyOptions): Promise<DraftApplyOutcome> {
  const release = await acquireLock(options.statePath, { command: 'watch --apply-drafts', root: options.root, onStaleLock: options.onStaleLock, timezone: options.timezone });
  try {
    const store = await StateStore.open(options.statePath, options.plan.target, { seal: options.seal, root: options.root });
    if (store.sectionHash() !== options.plan.stateHash) return { applied: false };
    const result = await applyPlan({ plan: options.plan, client: options.client, store, root: options.root, onEvent: options.onEvent });
    await store.flush();
    return { applied: true, result, stateHash: store.sectionHash() };
  } finally {
    await release();
  }
}
