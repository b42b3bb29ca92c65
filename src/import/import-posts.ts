import type { Post } from '../api/types.js';
import type { Config } from '../config/types.js';
import type { Connection } from '../pipeline/connect.js';
import { acquireLock } from '../state/lock.js';
import { StateStore } from '../state/state-store.js';
import { readState, sectionFor } from '../state/state-file.js';
import type { TargetState } from '../state/types.js';
import { prepareImport, type ImportPlan } from './prepare.js';
import type { ImportFilter } from './select.js';
import { writeImport, type WriteOutcome } from './write.js';

export interface ImportOptions {
  config: Config;
  connection: Pick<Connection, 'client' | 'target'>;
  filter: ImportFilter;
  /** Prepare only: nothing is written and the state lock is not taken. */
  dryRun: boolean;
  now: () => Date;
}

export interface ImportResult {
  plan: ImportPlan;
  /** Empty on a dry run. */
  outcome: WriteOutcome;
}

/** Page size the listing asks for: the API's maximum, so the listing costs ceil(posts / 100) requests. */
const PAGE_SIZE = 100;

async function listRemotePosts(connection: ImportOptions['connection'], filter: ImportFilter): Promise<Post[]> {
  const posts: Post[] = [];
  const query = { limit: PAGE_SIZE, sort: 'oldest' as const, ...(filter.status !== undefined ? { status: filter.status } : {}) };
  for await (const post of connection.client.listPosts(query)) posts.push(post);
  return posts;
}

/**
 * `postsync import`: remote posts that are not in state become post files and state records.
 * The state is read under the state lock and kept until the last record is written, so an apply
 * cannot interleave. Requests: the listing's pages and one capabilities read per account in use.
 */
export async function importPosts(options: ImportOptions): Promise<ImportResult> {
  const { config, connection } = options;
  const prepare = async (section: TargetState) =>
    prepareImport({ config, client: connection.client, section, posts: await listRemotePosts(connection, options.filter), filter: options.filter, now: options.now() });
  if (options.dryRun) {
    const plan = await prepare(sectionFor(await readState(config.statePath), connection.target));
    return { plan, outcome: { written: [], failed: [] } };
  }
  const release = await acquireLock(config.statePath, { command: 'import' });
  try {
    const store = await StateStore.open(config.statePath, connection.target);
    const plan = await prepare(structuredClone(store.section) as TargetState);
    const outcome = await writeImport(plan.items, { root: config.root, store, now: options.now });
    await store.checkpoint();
    return { plan, outcome };
  } finally {
    await release();
  }
}
