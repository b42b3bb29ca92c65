import { dirname } from 'node:path';
import type { Post } from '../api/types.js';
import type { Config } from '../config/types.js';
import type { Connection } from '../pipeline/connect.js';
import { acquireLock } from '../state/lock.js';
import { StateStore } from '../state/state-store.js';
import { readState, sectionFor } from '../state/state-file.js';
import type { ProjectState } from '../state/types.js';
import { describeForeignMedia, mediaDownloader, type FetchForeignMedia } from './foreign-media.js';
import { foreignOwners } from '../pipeline/foreign-owners.js';
import { prepareImport, type ImportPlan } from './prepare.js';
import type { ImportFilter } from './select.js';
import { writeImport, type WriteOutcome } from './write.js';

export interface ImportOptions {
  config: Config;
  connection: Pick<Connection, 'client' | 'project' | 'seal'>;
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
 * Media the state does not know are downloaded from the service (where it offers them) into
 * media/imported/ and recorded too; a dry run downloads nothing and lists them. The state is read
 * under the state lock and kept until the last record is written, so an apply cannot interleave.
 * Requests: the listing's pages, one capabilities read per account in use, one download per media.
 */
export async function importPosts(options: ImportOptions): Promise<ImportResult> {
  const { config, connection } = options;
  const now = options.now();
  const prepare = async (section: ProjectState, fetchForeignMedia: FetchForeignMedia) =>
    prepareImport({
      config,
      client: connection.client,
      section,
      posts: await listRemotePosts(connection, options.filter),
      filter: options.filter,
      now,
      fetchForeignMedia,
      foreignOwners: await foreignOwners(config.root, connection.project),
    });
  if (options.dryRun) {
    const plan = await prepare(sectionFor(await readState(config.statePath), connection.project), describeForeignMedia);
    return { plan, outcome: { written: [], failed: [] } };
  }
  const release = await acquireLock(config.statePath, { command: 'import', root: config.root, timezone: config.timezone });
  // Downloads wait beside the state file (inside the project, on the same file system).
  const downloader = mediaDownloader({ root: config.root, tempParent: dirname(config.statePath), now });
  const used = new Set<string>();
  try {
    const store = await StateStore.open(config.statePath, connection.project, { seal: connection.seal, root: config.root });
    const plan = await prepare(structuredClone(store.section) as ProjectState, downloader.fetch);
    const outcome = await writeImport(plan.items, { root: config.root, store, now: options.now });
    for (const item of outcome.written) for (const media of item.downloaded) used.add(media.file);
    await store.checkpoint();
    return { plan, outcome };
  } finally {
    await downloader.finish(used);
    await release();
  }
}
