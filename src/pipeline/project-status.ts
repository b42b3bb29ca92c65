import type { Post } from '../api/types.js';
import type { RunCache } from '../cache/run-cache.js';
import type { Config } from '../config/types.js';
import { readState, sectionFor } from '../state/state-file.js';
import type { StateFile } from '../state/types.js';
import type { Connection } from './connect.js';
import { draftReadiness, type DraftReadiness } from './draft-readiness.js';
import { listLivePosts } from './live-listing.js';
import { createPlanCaches } from './plan-caches.js';
import { readDesired } from './read-desired.js';

/**
 * `postsync status`: the state file and, when it owns any post on this target, every remote post
 * (one listing, pages of 100, joined with the state by post id instead of one read per post).
 * When a managed post is a draft on the remote, the files are read and checked too, to tell per
 * draft whether it is ready to schedule (`drafts`, by file).
 */
export async function projectStatus(input: {
  config: Config;
  connection: Pick<Connection, 'client' | 'target'>;
  kept?: RunCache;
  now: Date;
}): Promise<{ state: StateFile; live: Post[]; drafts: DraftReadiness[] }> {
  const { config, connection } = input;
  const state = await readState(config.statePath);
  const section = sectionFor(state, connection.target);
  const managed = Object.keys(section.posts).length > 0;
  const live = managed ? (await listLivePosts(connection.client)).all() : [];
  const owned = new Set(Object.values(section.posts).map((record) => record.postId));
  if (!live.some((post) => post.status === 'draft' && owned.has(post.id))) return { state, live, drafts: [] };
  const desired = await readDesired({ config, client: connection.client, now: input.now, caches: createPlanCaches(input.kept), calendar: { state: section, prune: false } });
  await input.kept?.save();
  return { state, live, drafts: draftReadiness(desired) };
}
