import { sortDiagnostics } from '../text/ordering.js';
import type { ContentResult } from '../content/read-content.js';
import type { DesiredPost } from '../content/types.js';
import type { Diagnostic } from '../diagnostics.js';
import type { ProbeCache } from '../media/probe-cache.js';
import type { AccountAvailability, Plan, PlanTarget } from '../plan/types.js';
import { checkDesiredPosts } from '../run/check-posts.js';
import { guardChanges } from '../run/guard-changes.js';
import type { TargetState } from '../state/types.js';
import type { IncrementalPlanner } from './incremental-plan.js';
import type { RemoteCache } from './remote-cache.js';

/**
 * The account-rule checks of each post, kept while the post (a re-read file is a new object) and
 * the rules (`RemoteCache.version`) are the same: a save checks only the posts it re-read.
 */
export class PostChecks {
  #version = -1;
  #byPost = new WeakMap<DesiredPost, Diagnostic[]>();

  async check(posts: readonly DesiredPost[], remote: RemoteCache, probes: ProbeCache): Promise<Diagnostic[]> {
    if (remote.version !== this.#version) {
      this.#version = remote.version;
      this.#byPost = new WeakMap();
    }
    const unchecked = posts.filter((post) => !this.#byPost.has(post));
    await Promise.all(
      unchecked.map(async (post) => this.#byPost.set(post, await checkDesiredPosts({ posts: [post], rules: remote.rules, probes }))),
    );
    return sortDiagnostics(posts.flatMap((post) => this.#byPost.get(post)!));
  }
}

export interface SnapshotPlanInput {
  target: PlanTarget;
  content: ContentResult;
  /** The account-rule checks of `content.posts`. */
  checks: Diagnostic[];
  remote: RemoteCache;
  section: TargetState;
  /** `stateSectionHash(section)`, computed once per state read rather than once per save. */
  stateHash: string;
  now: Date;
  planner: IncrementalPlanner;
}

/**
 * What `buildPlan` does after its reads, on data already in hand: the planner (incremental, see
 * IncrementalPlanner), then the guards (a broken file never deletes its post; no scheduling
 * into the past).
 */
export function planFromSnapshot(input: SnapshotPlanInput): Plan {
  const { content, remote, section, now } = input;
  const accounts = new Map<string, AccountAvailability>();
  for (const [id, capabilities] of remote.rules.capabilities) {
    accounts.set(id, { available: capabilities.available && capabilities.supported, reason: capabilities.reason });
  }
  const planInput = {
    target: input.target,
    desired: content.posts,
    diagnostics: [...content.diagnostics, ...input.checks],
    state: section,
    stateHash: input.stateHash,
    live: [...remote.live],
    accounts,
    prune: false,
    only: null,
    now: now.toISOString(),
  };
  const plan = input.planner.plan(planInput, remote.version);
  return guardChanges(plan, { diagnostics: content.diagnostics, now });
}
