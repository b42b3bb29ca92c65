import { applyPlan } from '../apply/apply-plan.js';
import { recordFinalStatuses } from '../apply/record-final.js';
import type { ApplyListener, ApplyResult } from '../apply/events.js';
import { verifyPlanFresh } from '../apply/freshness.js';
import type { RunCache } from '../cache/run-cache.js';
import type { Config } from '../config/types.js';
import { hasErrors } from '../diagnostics.js';
import { hasChanges } from '../plan/has-changes.js';
import type { LivePostsById, Plan, PlanChoices } from '../plan/types.js';
import { acquireLock, type LockOwner } from '../state/lock.js';
import { StateStore } from '../state/state-store.js';
import { createPlanCaches } from './plan-caches.js';
import { buildPlan } from './build-plan.js';
import type { Connection } from './connect.js';

export interface ApplyProjectOptions {
  config: Config;
  connection: Pick<Connection, 'client' | 'project' | 'seal'>;
  /** A plan saved by `plan --out`: applied exactly as it is, refused (StalePlanError) when stale. Null: a plan is made now. */
  saved: Plan | null;
  /** The reading memo, saved by the caller. */
  memo?: RunCache;
  prune: boolean;
  /** The post keys a plan made now is limited to (`--target`); null: every post. */
  selection: readonly string[] | null;
  /**
   * All or nothing (`--strict`): nothing is applied while any file has an error. Otherwise the
   * posts with errors are blocked in the plan and every other change is applied.
   */
  strict: boolean;
  concurrency?: number;
  /** Plan against every remote post, history included (`apply --refresh-all`). */
  refreshAll?: boolean;
  /** A person's decisions on held posts (`--adopt`, `--recreate`). */
  choices?: PlanChoices;
  /** Told when the state lock of a run that is no longer running was taken over. */
  onStaleLock?: (previous: LockOwner) => void;
  /** The plan, once made or verified, before anything is sent. */
  onPlan: (plan: Plan) => Promise<void>;
  /** Whether to apply the plan (it has changes, and no errors under `strict`). */
  approve: (plan: Plan) => Promise<boolean>;
  /** The listener of the apply's events, once the plan is approved. */
  progress: (plan: Plan) => ApplyListener;
}

/**
 * - `invalid`: `strict`, and the plan has errors: nothing was applied;
 * - `nothing`: nothing to send or record;
 * - `declined`: not approved: nothing was applied;
 * - `applied`: `result` says what was done (it may have failed in part).
 */
export type ApplyOutcome = { kind: 'invalid' | 'nothing' | 'declined'; plan: Plan } | { kind: 'applied'; plan: Plan; result: ApplyResult };

/**
 * `postsync apply`: under the state lock, the plan (made now against the locked state, or the
 * saved one once verified fresh), then, approved, the apply with a state write after every change.
 */
export async function applyProject(options: ApplyProjectOptions): Promise<ApplyOutcome> {
  const { config, connection } = options;
  const release = await acquireLock(config.statePath, { command: 'apply', root: config.root, timezone: config.timezone, ...(options.onStaleLock === undefined ? {} : { onStaleLock: options.onStaleLock }) });
  try {
    const store = await StateStore.open(config.statePath, connection.project, { seal: connection.seal, root: config.root });
    let plan: Plan;
    let live: LivePostsById | undefined;
    if (options.saved !== null) {
      await verifyPlanFresh({ plan: options.saved, client: connection.client, project: connection.project, stateHash: store.sectionHash(), root: config.root });
      plan = options.saved;
    } else {
      const state = { section: store.section, hash: store.sectionHash() };
      const built = await buildPlan({ config, connection, state, caches: createPlanCaches(options.memo), prune: options.prune, selection: options.selection, now: new Date(), ...(options.refreshAll === undefined ? {} : { refreshAll: options.refreshAll }), ...(options.choices === undefined ? {} : { choices: options.choices }) });
      ({ plan, live } = built);
    }
    await options.onPlan(plan);
    if (options.strict && hasErrors(plan.diagnostics)) return { kind: 'invalid', plan };
    // Final statuses seen are recorded whether or not there is anything to send (not when declined).
    const recordFinal = async () => (live === undefined ? undefined : recordFinalStatuses({ plan, live, store }));
    if (!hasChanges(plan)) {
      await recordFinal();
      return { kind: 'nothing', plan };
    }
    if (!(await options.approve(plan))) return { kind: 'declined', plan };
    const result = await applyPlan({ plan, client: connection.client, store, root: config.root, concurrency: options.concurrency, onEvent: options.progress(plan) });
    await recordFinal();
    return { kind: 'applied', plan, result };
  } finally {
    await release();
  }
}
