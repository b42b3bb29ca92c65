import type { Config } from '../config/types.js';
import { exceptForeign, NO_FOREIGN_OWNERS } from '../plan/foreign-owners.js';
import { planPosts } from '../plan/plan-posts.js';
import { selectPlan } from '../plan/select-plan.js';
import { foreignOwners } from './foreign-owners.js';
import type { Plan, PlanChoices, PlanInput } from '../plan/types.js';
import { unconfirmedRecords } from '../state/seal.js';
import type { StateSection } from '../state/types.js';
import type { PostRecord } from '../state/types.js';
import type { Connection } from './connect.js';
import { listLivePosts, type LiveListing } from './live-listing.js';
import { completeScopedListing, listOpenPosts, ScopedListing } from './scoped-listing.js';
import { learnOrphanMedia } from './orphan-media.js';
import { createPlanCaches, type PlanCaches } from './plan-caches.js';
import { readDesired, type DesiredSide } from './read-desired.js';

export interface BuildPlanOptions {
  config: Config;
  connection: Pick<Connection, 'client' | 'project' | 'seal'>;
  /** The state section to plan against; may still be being read, alongside the listing. */
  state: StateSection | Promise<StateSection>;
  /**
   * The remote read, when the caller started it already: every remote post (`listLivePosts`), or
   * the listings of a scoped read (`listOpenPosts`). Absent: a scoped read, or a full one with `refreshAll`.
   */
  listing?: RemoteRead;
  /** List every remote post, history included, instead of only those the plan can need. */
  refreshAll?: boolean;
  /** What the run remembers (the reading memo, saved by the caller once its command ends; the media facts, which a calendar of the plan reuses); absent, fresh ones without a reading memo. */
  caches?: PlanCaches;
  prune: boolean;
  /** The post keys the plan is limited to (`--target`, `selectPlan`); null: every post. */
  selection: readonly string[] | null;
  now: Date;
  /** A person's decisions on held posts (`--adopt`, `--recreate`). */
  choices?: PlanChoices;
}

/** A plan and what it was made from. */
export interface BuiltPlan {
  plan: Plan;
  desired: DesiredSide;
  live: LiveListing | ScopedListing;
  state: StateSection;
}

/** A remote read under way: the full listing, or the listings a scoped read starts with. */
export type RemoteRead = { full: Promise<LiveListing> } | { open: Promise<LiveListing[]> };

/** Starts the remote read of a plan: scoped unless `refreshAll`. */
export function startRemoteRead(client: Connection['client'], options: { refreshAll?: boolean }): RemoteRead {
  const read: RemoteRead = options.refreshAll === true ? { full: listLivePosts(client) } : { open: listOpenPosts(client) };
  // Awaited by buildPlan; should reading the state fail first, the caller closes the client and this ends.
  ('full' in read ? read.full : read.open).catch(() => undefined);
  return read;
}

/**
 * Reads the files and lists the remote posts in parallel, checks every post against its
 * accounts' rules, and hands everything to the pure planner. Nothing is written anywhere.
 * Requests: the listing's pages (a page or two more than one chain would read), plus one
 * capabilities read per account named in postsync.yaml or used by a post.
 */
export async function buildPlan(options: BuildPlanOptions): Promise<BuiltPlan> {
  const { config, connection, now } = options;
  const read = options.listing ?? startRemoteRead(connection.client, options);
  // Read alongside the listing; awaited once the desired side is read.
  const othersRead = foreignOwners(config.root, connection.project);
  const state = await options.state;
  const { section } = state;
  // The schedule rules and slots see the open posts (drafts and scheduled), not the by-id reads that complete a scoped listing.
  const scheduleLive = 'full' in read ? read.full : read.open.then((listings) => new ScopedListing(listings, new Map(), []));
  // Awaited only when rules or slots need it; a failed listing is reported through `listed` below.
  scheduleLive.catch(() => undefined);
  const [listed, desired] = await Promise.all([
    'full' in read ? read.full : read.open,
    readDesired({ config, client: connection.client, now, caches: options.caches ?? createPlanCaches(), schedule: { state: section, live: scheduleLive, prune: options.prune } }),
  ]);
  const live = Array.isArray(listed)
    ? await completeScopedListing({ client: connection.client, listings: listed, records: section.posts, readFinal: changedSinceApply(desired) })
    : listed;
  const input: PlanInput = {
    project: connection.project,
    desired,
    remote: { live, capabilities: desired.rules.capabilities },
    state: { ...state, unconfirmed: unconfirmedRecords(section, connection.seal), foreignOwners: await othersRead },
    prune: options.prune,
    now,
    timezone: config.timezone,
    ...(options.choices === undefined ? {} : { choices: options.choices }),
  };
  const plan = selectPlan(await planDesired(input), options.selection, input);
  return { plan, desired, live, state };
}

/**
 * Whether an owned post's file is no longer as applied (changed, moved or removed): the planner
 * then needs its remote post in full, final or not.
 */
export function changedSinceApply(desired: Pick<DesiredSide, 'posts'>): (key: string, record: PostRecord) => boolean {
  const byKey = new Map(desired.posts.map((post) => [post.key, post]));
  return (key, record) => {
    const post = byKey.get(key);
    return post === undefined || post.file !== record.file || post.shapeHash !== record.appliedHash;
  };
}

/**
 * The plan of every post of `input`: the remote media a new file may need to know to adopt an orphan
 * post are fetched and hashed first (`learnOrphanMedia`; usually none) as `remote.mediaSha256s`, then
 * the planner decides everything (plan/plan-posts.ts). `learnedMedia`: such a session's remote media
 * learned by content so far (watch), so each is fetched once.
 */
export async function planDesired(input: PlanInput, options: { learnedMedia?: Map<string, string> } = {}): Promise<Plan> {
  // Another calendar's posts are never adopted here: their media are not worth learning.
  const live = exceptForeign(input.remote.live, input.state.foreignOwners ?? NO_FOREIGN_OWNERS);
  const learned = options.learnedMedia === undefined ? {} : { learned: options.learnedMedia };
  const mediaSha256s = await learnOrphanMedia({ posts: input.desired.posts, state: input.state.section, live, ...learned });
  return planPosts({ ...input, remote: { ...input.remote, mediaSha256s } });
}
