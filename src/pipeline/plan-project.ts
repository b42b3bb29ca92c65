import type { RunCache } from '../cache/run-cache.js';
import type { Config } from '../config/types.js';
import { readStateSection } from '../state/state-file.js';
import { createPlanCaches } from './plan-caches.js';
import { buildPlan, startRemoteRead, type BuiltPlan } from './build-plan.js';
import type { Connection } from './connect.js';
import type { PlanChoices } from '../plan/types.js';

/**
 * `postsync plan`: the remote read (scoped, `build-plan.ts`) goes out first, then the state file and the
 * post files are read while its pages come in.
 */
export async function planProject(input: {
  config: Config;
  connection: Pick<Connection, 'client' | 'project' | 'seal'>;
  /** The reading memo, saved by the caller. */
  memo: RunCache;
  prune: boolean;
  /** The post keys the plan is limited to (`--target`); null: every post. */
  selection: readonly string[] | null;
  now: Date;
  /** List every remote post, history included (`plan --refresh-all`). */
  refreshAll?: boolean;
  /** A person's decisions on held posts (`--adopt`, `--recreate`). */
  choices?: PlanChoices;
}): Promise<BuiltPlan> {
  const { config, connection, memo } = input;
  const listing = startRemoteRead(connection.client, input);
  const state = readStateSection(config.statePath, connection.project);
  return buildPlan({ config, connection, state, listing, caches: createPlanCaches(memo), prune: input.prune, selection: input.selection, now: input.now, ...(input.choices === undefined ? {} : { choices: input.choices }) });
}
