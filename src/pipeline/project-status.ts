import type { Post } from '../api/types.js';
import type { Config } from '../config/types.js';
import { readState, sectionFor } from '../state/state-file.js';
import type { StateFile } from '../state/types.js';
import type { Connection } from './connect.js';
import { listLivePosts } from './live-listing.js';

/**
 * `postsync status`: the state file and, when it owns any post on this target, every remote post
 * (one listing, pages of 100, joined with the state by post id instead of one read per post).
 */
export async function projectStatus(input: { config: Pick<Config, 'statePath'>; connection: Pick<Connection, 'client' | 'target'> }): Promise<{ state: StateFile; live: Post[] }> {
  const state = await readState(input.config.statePath);
  const managed = Object.keys(sectionFor(state, input.connection.target).posts).length > 0;
  const live = managed ? (await listLivePosts(input.connection.client)).all() : [];
  return { state, live };
}
