import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { hasErrors } from '../../src/diagnostics.js';
import { serializePlan } from '../../src/plan/plan-file.js';
import { buildPlan } from '../../src/run/build-plan.js';
import { hasChanges } from '../../src/run/plan-summary.js';
import { readState } from '../../src/state/store.js';
import { reportToGitHubActions } from '../../src/actions/index.js';
import { globalOptions, openPlanCaches, openTarget } from '../context.js';
import { planReport, renderJson } from '../views/plan-json.js';
import { renderPlan } from '../views/plan-human.js';
import { renderPlanMarkdown } from '../views/plan-markdown.js';

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
  const { config, connection, style } = await openTarget(options);
  try {
    const caches = openPlanCaches(config, options);
    const state = readState(config.statePath, { known: caches.kept.knownStates() });
    const { plan } = await buildPlan({ config, connection, state, prune: flags.prune ?? false, only: flags.target ?? null, now: new Date(), caches });
    await caches.kept.save();
    if (flags.out) await writeFile(flags.out, serializePlan(plan));
    if (flags.json) process.stdout.write(renderJson(planReport('plan', plan)));
    else if (flags.markdown) process.stdout.write(`${renderPlanMarkdown(plan, { label: connection.label })}\n`);
    else {
      process.stdout.write(`${renderPlan(plan, { label: connection.label, style, verbose: flags.verbose })}\n`);
      if (flags.out) process.stdout.write(`\nSaved this plan to ${flags.out}. Apply exactly it with: postsync apply ${flags.out}\n`);
    }
    await reportToGitHubActions({ root: config.root, diagnostics: plan.diagnostics, plan, summary: () => renderPlanMarkdown(plan, { label: connection.label }) }, { env: process.env, annotate: (line) => process.stderr.write(line) });
    if (hasErrors(plan.diagnostics)) return 1;
    return flags.detailedExitcode && hasChanges(plan) ? 2 : 0;
  } finally {
    await connection.close();
  }
}
