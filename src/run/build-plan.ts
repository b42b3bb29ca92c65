import type { Config } from '../config/types.js';
import { splitUnchanged } from '../plan/desired-changes.js';
import { createPlan } from '../plan/planner.js';
import type { AccountAvailability, Plan } from '../plan/types.js';
import { sectionFor, sectionHashOf } from '../state/store.js';
import type { StateFile } from '../state/types.js';
import type { Connection } from './connect.js';
import { guardChanges } from './guard-changes.js';
import { createPlanCaches, type PlanCaches } from './plan-caches.js';
import { sortByKey } from '../text/ordering.js';
import { readDesired } from './read-desired.js';
import { listLivePosts, type LiveListing } from './live-listing.js';

export interface BuildPlanOptions {
  config: Config;
  connection: Pick<Connection, 'client' | 'target'>;
  /** May still be being read: the listing starts first, alongside it. */
  state: StateFile | Promise<StateFile>;
  /** The listing of every remote post (`listLivePosts`), when the caller started it already. */
  listing?: Promise<LiveListing>;
  prune: boolean;
  only: string[] | null;
  now: Date;
  caches?: PlanCaches;
}

export interface BuiltPlan {
  plan: Plan;
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
  const section = sectionFor(state, connection.target);
  const [live, desired] = await Promise.all([
    listing,
    readDesired({ config, client: connection.client, now, caches: options.caches ?? createPlanCaches(), ownedKeys: { has: (key) => section.posts[key] !== undefined } }),
  ]);

  // Unchanged files whose posts are also untouched on the remote are noops as they are; the others
  // are read in full, to be planned like any post.
  const { untouched, touched } = splitUnchanged(desired.unchanged, section, live.briefs);
  const posts = touched.length === 0 ? desired.posts : sortByKey([...desired.posts, ...(await desired.readInFull(touched))]);

  const accounts = new Map<string, AccountAvailability>();
  for (const [id, capabilities] of desired.rules.capabilities) {
    accounts.set(id, { available: capabilities.available && capabilities.supported, reason: capabilities.reason });
  }
  const plan = createPlan({
    target: connection.target,
    desired: posts,
    untouched,
    diagnostics: desired.diagnostics,
    state: section,
    stateHash: sectionHashOf(state, connection.target),
    live,
    accounts,
    prune: options.prune,
    only: options.only,
    now: now.toISOString(),
  });
  return { plan: guardChanges(plan, { diagnostics: desired.contentDiagnostics, now }) };
}
