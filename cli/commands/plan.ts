import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { hasErrors } from '../../src/diagnostics.js';
import { listLivePosts } from '../../src/run/live-listing.js';
import { globalOptions, openPlanCaches, openTarget } from '../context.js';

export interface PlanFlags {
  out?: string;
  prune?: boolean;
  target?: string[];
  json?: boolean;
  markdown?: boolean;
  verbose?: boolean;
  detailedExitcode?: boolean;
}

/** Exit 0, 1 for invalid files, 2 with --detailed-exitcode when there are changes. */
export async function runPlan(flags: PlanFlags, command: Command): Promise<number> {
  const options = globalOptions(command);
  // The modules the rest of the plan needs load while the session is read and, once it is, while
  // the listing's first pages come in: it goes out first.
  const modules = Promise.all([
    import('../../src/run/build-plan.js'),
    import('../../src/run/plan-summary.js'),
    import('../../src/state/store.js'),
    import('../views/plan-human.js'),
    import('../actions-report.js'),
  ]);
  modules.catch(() => undefined);
  const { config, connection, style } = await openTarget(options);
  try {
    const listing = listLivePosts(connection.client);
    listing.catch(() => undefined);
    const [{ buildPlan }, { hasChanges }, { readState }, { renderPlan }, { reportPlanToGitHubActions }] = await modules;
    const caches = openPlanCaches(config, options);
    const state = readState(config.statePath, { known: caches.kept.knownStates() });
    const { plan } = await buildPlan({ config, connection, state, listing, prune: flags.prune ?? false, only: flags.target ?? null, now: new Date(), caches });
    await caches.kept.save();
    // Each output's module is loaded only when it is asked for.
    if (flags.out) await writeFile(flags.out, (await import('../../src/plan/plan-file.js')).serializePlan(plan));
    if (flags.json) {
      const { planReport, renderJson } = await import('../views/plan-json.js');
      process.stdout.write(renderJson(planReport('plan', plan)));
    } else if (flags.markdown) process.stdout.write(`${(await import('../views/plan-markdown.js')).renderPlanMarkdown(plan, { label: connection.label })}\n`);
    else {
      process.stdout.write(`${renderPlan(plan, { label: connection.label, style, verbose: flags.verbose })}\n`);
      if (flags.out) process.stdout.write(`\nSaved this plan to ${flags.out}. Apply exactly it with: postsync apply ${flags.out}\n`);
    }
    await reportPlanToGitHubActions(plan, { root: config.root, label: connection.label });
    if (hasErrors(plan.diagnostics)) return 1;
    return flags.detailedExitcode && hasChanges(plan) ? 2 : 0;
  } finally {
    await connection.close();
  }
}
