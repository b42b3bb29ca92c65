import type { Post } from '../api/types.js';
import type { RunCache } from '../cache/run-cache.js';
import type { Config } from '../config/types.js';
import { readState, sectionFor } from '../state/state-file.js';
import type { PostRecord, StateFile } from '../state/types.js';
import type { Connection } from './connect.js';
import { draftReadiness, type DraftReadiness } from './draft-readiness.js';
import { listLivePosts } from './live-listing.js';
import { completeScopedListing, listOpenPosts } from './scoped-listing.js';
import { createPlanCaches } from './plan-caches.js';
import { readDesired } from './read-desired.js';

/** What `status` shows: the state, the owned posts read, and the owned posts left unread. */
export interface ProjectStatus {
  state: StateFile;
  live: Post[];
  /** Ids of owned posts an apply recorded final (published) and not read again: they are not gone. */
  unread: ReadonlySet<string>;
  drafts: DraftReadiness[];
}

/**
 * `postsync status`: the state file and, when it owns any post on this target, the remote posts it
 * owns, read as a plan reads them (`completeScopedListing`): the drafts and scheduled posts listed,
 * other owned posts by id, except those an apply recorded final (published), which are not read
 * again; `refreshAll` lists every remote post instead. When a managed post is a draft on the
 * remote, the files are read and checked too, to tell per draft whether it is ready to schedule
 * (`drafts`, by file).
 */
export async function projectStatus(input: {
  config: Config;
  connection: Pick<Connection, 'client' | 'project'>;
  memo?: RunCache;
  now: Date;
  refreshAll?: boolean;
}): Promise<ProjectStatus> {
  const { config, connection } = input;
  const state = await readState(config.statePath);
  const section = sectionFor(state, connection.project);
  const managed = Object.keys(section.posts).length > 0;
  const live = managed ? await readOwned(connection.client, section.posts, input.refreshAll === true) : [];
  const read = new Set(live.map((post) => post.id));
  const unread = new Set(Object.values(section.posts).flatMap((record) => (record.final !== undefined && !read.has(record.postId) && input.refreshAll !== true ? [record.postId] : [])));
  const owned = new Set(Object.values(section.posts).map((record) => record.postId));
  if (!live.some((post) => post.status === 'draft' && owned.has(post.id))) return { state, live, unread, drafts: [] };
  const desired = await readDesired({ config, client: connection.client, now: input.now, caches: createPlanCaches(input.memo), schedule: { state: section, prune: false } });
  return { state, live, unread, drafts: draftReadiness(desired) };
}

async function readOwned(client: Connection['client'], records: Readonly<Record<string, PostRecord>>, refreshAll: boolean): Promise<Post[]> {
  if (refreshAll) return (await listLivePosts(client)).all();
  const listings = await listOpenPosts(client);
  return (await completeScopedListing({ client, listings, records, readFinal: () => false })).all();
}
