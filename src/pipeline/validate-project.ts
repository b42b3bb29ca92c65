import type { RunCache } from '../cache/run-cache.js';
import type { Config } from '../config/types.js';
import { strayPostFiles } from '../content/stray-posts.js';
import { readStateSection } from '../state/state-file.js';
import type { Connection } from './connect.js';
import { createPlanCaches } from './plan-caches.js';
import { readDesired, type DesiredSide } from './read-desired.js';

/**
 * `postsync validate`: every file, and every post against the rules of its accounts and the
 * house rules (posts owned in the state may keep a past scheduledAt, and their slots; the remote
 * is not listed, so only posts with files count); `.postsync/cache` is saved once they are read.
 * Also warns of post files git lists outside the content folder, which no other command reads.
 */
export async function validateProject(input: { config: Config; connection: Pick<Connection, 'client' | 'project'>; memo: RunCache; now: Date }): Promise<DesiredSide> {
  const { config, connection, memo } = input;
  const { section } = await readStateSection(config.statePath, connection.project);
  const desired = await readDesired({ config, client: connection.client, now: input.now, caches: createPlanCaches(memo), schedule: { state: section, prune: false } });
  const stray = await strayPostFiles(config);
  return stray.length === 0 ? desired : { ...desired, contentDiagnostics: [...desired.contentDiagnostics, ...stray] };
}
