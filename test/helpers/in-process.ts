import { expect } from 'vitest';
import { RunCache } from '../../src/cache/run-cache.js';
import { loadConfig } from '../../src/config/load-config.js';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { applyProject, type ApplyOutcome } from '../../src/pipeline/apply-project.js';
import { connect } from '../../src/pipeline/connect.js';
import { planProject } from '../../src/pipeline/plan-project.js';
import type { Change, Plan, PlanChoices } from '../../src/plan/types.js';

export interface RunOptions {
  prune?: boolean;
  choices?: PlanChoices;
}

/**
 * `postsync plan` and `apply --yes` of a project folder against an API, run in this process through
 * the use cases the commands call (no CLI spawn): what a case proves about planning and applying,
 * not about the command line. The API key is the demo key unless `options.key` says otherwise.
 */
export function inProcess(dir: string, apiUrl: string, options: { key?: string } = {}) {
  const open = async () => {
    const config = await loadConfig({ cwd: dir, env: { POSTSYNC_API_KEY: options.key ?? DEMO_API_KEY }, flags: { apiUrl } });
    const connection = await connect(config, { ci: false });
    return { config, connection, memo: RunCache.open(dir, { enabled: false }) };
  };
  return {
    async plan(options: RunOptions = {}): Promise<Plan> {
      const { config, connection, memo } = await open();
      try {
        return (await planProject({ config, connection, memo, prune: options.prune ?? false, selection: null, now: new Date(), ...(options.choices ? { choices: options.choices } : {}) })).plan;
      } finally {
        await connection.close();
      }
    },
    async apply(options: RunOptions = {}): Promise<ApplyOutcome> {
      const { config, connection, memo } = await open();
      try {
        return await applyProject({
          config,
          connection,
          saved: null,
          memo,
          prune: options.prune ?? false,
          selection: null,
          strict: false,
          ...(options.choices ? { choices: options.choices } : {}),
          onPlan: async () => {},
          approve: async () => true,
          progress: () => () => {},
        });
      } finally {
        await connection.close();
      }
    },
  };
}

/** The changes of a plan that are not `noop`, as `action key`: an empty list is `No changes.` */
export const pending = (plan: Plan): string[] => plan.changes.filter((change) => change.action !== 'noop').map((change) => `${change.action} ${change.key}`);

/** What an apply did, counted by action (`3 created` is `{ create: 3 }`), and what failed. */
export function applied(outcome: ApplyOutcome): { counts: Partial<Record<Change['action'], number>>; failed: string[]; blocked: number } {
  const counts: Partial<Record<Change['action'], number>> = {};
  const done = outcome.kind === 'applied' ? outcome.result.applied : [];
  for (const change of done) counts[change.action] = (counts[change.action] ?? 0) + 1;
  return { counts, failed: outcome.kind === 'applied' ? outcome.result.failed.map((failure) => `${failure.key}: ${failure.error.message}`) : [], blocked: outcome.plan.summary.blocked };
}

/** `apply --yes` as a case's setup, in this process: it must apply with nothing failed or blocked, as exit code 0 of the CLI says. */
export async function expectApplied(dir: string, apiUrl: string): Promise<void> {
  const outcome = await inProcess(dir, apiUrl).apply();
  expect(outcome.kind).toBe('applied');
  const { failed, blocked } = applied(outcome);
  expect({ failed, blocked }).toEqual({ failed: [], blocked: 0 });
}

/**
 * `apply --yes` in this process as a step of a case that does not read its output: nothing may
 * fail; a plan with nothing to do is fine. Returns what was applied, by action, and how many
 * changes were blocked.
 */
export async function applyInProcess(dir: string, apiUrl: string, options: RunOptions & { key?: string } = {}): Promise<{ counts: Partial<Record<Change['action'], number>>; blocked: number }> {
  const { key, ...run } = options;
  const outcome = await inProcess(dir, apiUrl, key === undefined ? {} : { key }).apply(run);
  expect(['applied', 'nothing']).toContain(outcome.kind);
  const { counts, failed, blocked } = applied(outcome);
  expect(failed).toEqual([]);
  return { counts, blocked };
}
