import type { ApiClient } from '../api/index.js';
import type { Config } from '../config/types.js';
import { LockedError } from '../errors.js';
import type { Change, LivePostsById, Plan } from '../plan/types.js';
import { canonicalJson } from '../state/hash.js';
import type { StateSeal } from '../state/seal.js';
import type { ProjectState } from '../state/types.js';
import { applyDrafts } from './apply-drafts.js';
import { draftOnlyPlan } from './draft-changes.js';
import type { WatchEvent } from './events.js';

/**
 * - `nothing`: no draft-only change to apply (or not now);
 * - `applied`: some were sent: the state and the remote must be read again;
 * - `state-moved`: another run changed the state since the plan: read it again, nothing was sent;
 * - `skipped`: not applied this time (the state lock is held by another run).
 */
export type DraftOutcome = 'nothing' | 'applied' | 'state-moved' | 'skipped';

/**
 * `--apply-drafts`: after each plan, applies its draft-only changes. Two things keep it from
 * costing requests on every save: a change that failed is not retried until the post changes,
 * and nothing is applied until the remote listing has been read again after the last apply
 * (a listing without the posts just created would plan them again).
 */
export class DraftApplier {
  readonly #client: ApiClient;
  readonly #seal: StateSeal;
  readonly #emit: (event: WatchEvent) => void;
  /** Key → the desired shape whose apply failed. */
  readonly #failed = new Map<string, string>();
  #listingStale = false;

  constructor(options: { client: ApiClient; seal: StateSeal; emit: (event: WatchEvent) => void }) {
    this.#client = options.client;
    this.#seal = options.seal;
    this.#emit = options.emit;
  }

  /** The remote listing was read again. */
  remoteRead(): void {
    this.#listingStale = false;
  }

  async apply(plan: Plan, context: { live: LivePostsById; section: ProjectState; config: Config }): Promise<DraftOutcome> {
    if (this.#listingStale) return 'nothing';
    const failedBefore = (change: Change) => this.#failed.get(change.key) === shapeOf(change);
    const drafts = draftOnlyPlan(plan, { live: context.live, section: context.section, exclude: failedBefore });
    if (drafts === null) return 'nothing';
    this.#emit({ type: 'apply-start', at: new Date(), plan: drafts });
    try {
      const outcome = await applyDrafts({
        plan: drafts,
        client: this.#client,
        statePath: context.config.statePath,
        seal: this.#seal,
        root: context.config.root,
        timezone: context.config.timezone,
        onEvent: (event) => this.#emit({ type: 'apply-progress', event }),
        onStaleLock: (previous) =>
          this.#emit({ type: 'notice', at: new Date(), message: `took over the state lock left by postsync ${previous.command} (pid ${previous.pid}), which is no longer running` }),
      });
      if (!outcome.applied) {
        this.#emit({ type: 'apply-skipped', at: new Date(), reason: 'the state file changed since this plan (another run applied); planning again' });
        return 'state-moved';
      }
      const byKey = new Map(drafts.changes.map((change) => [change.key, change]));
      for (const change of outcome.result.applied) this.#failed.delete(change.key);
      for (const failure of outcome.result.failed) this.#failed.set(failure.key, shapeOf(byKey.get(failure.key)));
      this.#listingStale = true;
      this.#emit({ type: 'apply-done', at: new Date(), result: outcome.result });
      return 'applied';
    } catch (error) {
      if (error instanceof LockedError) {
        this.#emit({ type: 'apply-skipped', at: new Date(), reason: error.message });
        return 'skipped';
      }
      // Part of it may have been sent: read everything again before applying anything more.
      this.#listingStale = true;
      this.#emit({ type: 'error', at: new Date(), during: 'apply', error: error instanceof Error ? error : new Error(String(error)) });
      return 'applied';
    }
  }
}

function shapeOf(change: Change | undefined): string {
  return canonicalJson(change?.desired ?? null);
}
