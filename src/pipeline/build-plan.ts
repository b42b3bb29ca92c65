import type { RunCache } from '../cache/run-cache.js';
import type { Config } from '../config/types.js';
import type { IncrementalPlanner } from '../plan/incremental-planner.js';
import { planPosts, unchangedToReadInFull } from '../plan/plan-posts.js';
import type { LivePostsById, Plan, PlanTarget } from '../plan/types.js';
import type { StateSection } from '../state/state-file.js';
import type { TargetState } from '../state/types.js';
import { sortByKey } from '../text/ordering.js';
import type { Connection } from './connect.js';
import { listLivePosts, type LiveListing } from './live-listing.js';
import { createPlanCaches } from './plan-caches.js';
import { readDesired, without, type DesiredSide } from './read-desired.js';

export interface BuildPlanOptions {
  config: Config;
  connection: Pick<Connection, 'client' | 'target'>;
  /** The state section to plan against; may still be being read, alongside the listing. */
  state: StateSection | Promise<StateSection>;
  /** The listing of every remote post (`listLivePosts`), when the caller started it already. */
  listing?: Promise<LiveListing>;
  /** `.postsync/cache`, saved once the plan is made; absent, nothing is reused or kept. */
  kept?: RunCache;
  prune: boolean;
  only: string[] | null;
  now: Date;
}

/** A plan and what it was made from. */
export interface BuiltPlan {
  plan: Plan;
  desired: DesiredSide;
  live: LiveListing;
  state: StateSection;
}

/**
 * Reads the files and lists the remote posts in parallel, checks every post against its
 * accounts' rules, and hands everything to the pure planner. Nothing is written anywhere.
 * Requests: the listing's pages (a page or two more than one chain would read), plus one
 * capabilities read per account named in postsync.yaml or used by a post.
 */
export async function buildPlan(options: BuildPlanOptions): Promise<BuiltPlan> {
  const { config, connection, now } = options;
  const listing = options.listing ?? listLivePosts(connection.client);
  // Awaited below; should reading the state fail first, the caller closes the client and this ends.
  listing.catch(() => undefined);
  const state = await options.state;
  const { section } = state;
  const [live, desired] = await Promise.all([
    listing,
    readDesired({ config, client: connection.client, now, caches: createPlanCaches(options.kept), ownedKeys: { has: (key) => section.posts[key] !== undefined } }),
  ]);
  const plan = await planDesired(desired, { target: connection.target, live, section, stateHash: state.hash, prune: options.prune, only: options.only, now });
  await options.kept?.save();
  return { plan, desired, live, state };
}

/** The remote side and the state a plan is made against, and how. */
export interface PlanAgainst {
  target: PlanTarget;
  live: LivePostsById;
  section: TargetState;
  /** `stateSectionHash(section)`. */
  stateHash: string;
  prune: boolean;
  only: string[] | null;
  now: Date;
  /** A session that plans again and again (watch) plans only what changed since its last plan. */
  planner?: IncrementalPlanner;
}

/**
 * The plan of a checked desired side: the unchanged posts the planner cannot decide from their
 * summary are read in full first, then the planner decides everything (plan/plan-posts.ts).
 */
export async function planDesired(desired: DesiredSide, against: PlanAgainst): Promise<Plan> {
  const touched = unchangedToReadInFull(desired.unchanged, against.section, against.live);
  const posts = touched.length === 0 ? desired.posts : sortByKey([...desired.posts, ...(await desired.readInFull(touched))]);
  const unchanged = touched.length === 0 ? desired.unchanged : without(desired.unchanged, touched);
  return planPosts({
    target: against.target,
    posts,
    unchanged,
    contentDiagnostics: desired.contentDiagnostics,
    checkDiagnostics: desired.checkDiagnostics,
    invalidFiles: desired.invalid,
    state: against.section,
    stateHash: against.stateHash,
    live: against.live,
    capabilities: desired.rules.capabilities,
    prune: against.prune,
    only: against.only,
    now: against.now,
    ...(against.planner === undefined ? {} : { planner: against.planner }),
  });
}
