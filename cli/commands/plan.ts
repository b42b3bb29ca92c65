import { out } from '../output.js';
import { term, terminalMarkdown } from '../../src/text/terminal.js';
import type { Command } from 'commander';
import { hasErrors } from '../../src/diagnostics.js';
import { hasChanges } from '../../src/plan/has-changes.js';
import { pruneHeader, pruneSetting } from '../../src/plan/prune-setting.js';
import { writePlanFile } from '../../src/plan-words/plan-json.js';
import { planProject } from '../../src/pipeline/plan-project.js';
import { reportPlanToGitHubActions } from '../actions-report.js';
import { globalOptions, openProject } from '../context.js';
import { planReport, renderJson } from '../views/plan-json.js';
import { renderPlan } from '../views/plan-human.js';
import { renderPlanMarkdown } from '../views/plan-markdown.js';
import { choicesOf, type ChoiceFlags } from '../plan-choices.js';
import { accountAliases } from '../views/account-aliases.js';

export interface PlanFlags extends ChoiceFlags {
  out?: string;
  prune?: boolean;
  refreshAll?: boolean;
  target?: string[];
  json?: boolean;
  markdown?: boolean;
  verbose?: boolean;
  fullText?: boolean;
  detailedExitcode?: boolean;
}

/** Exit 0, 1 for invalid files, 2 with --detailed-exitcode when there are changes. */
export async function runPlan(flags: PlanFlags, command: Command): Promise<number> {
  const { config, connection, style, memo } = await openProject(globalOptions(command));
  try {
    const prune = pruneSetting({ flag: flags.prune, config: config.prune });
    const pruneNote = pruneHeader(prune, { config: config.prune });
    const { plan } = await planProject({ config, connection, memo, prune: prune.on, selection: flags.target ?? null, now: new Date(), refreshAll: flags.refreshAll === true, ...choicesOf(flags) });
    if (flags.out) await writePlanFile(flags.out, plan);
    if (flags.json) out.write(renderJson(planReport('plan', plan)));
    else if (flags.markdown) out.write(term`${terminalMarkdown(renderPlanMarkdown(plan, { label: connection.label, timezone: config.timezone, pruneNote, fullText: flags.fullText === true, aliases: accountAliases(config) }))}\n`);
    else {
      out.write(term`${renderPlan(plan, { label: connection.label, pruneNote, style, timezone: config.timezone, verbose: flags.verbose, fullText: flags.fullText === true, aliases: accountAliases(config) })}\n`);
      if (flags.out) out.write(term`\nSaved this plan to ${flags.out}. Apply exactly it with: postsync apply ${flags.out}\n`);
    }
    await reportPlanToGitHubActions(plan, { root: config.root, label: connection.label, timezone: config.timezone, pruneNote });
    if (hasErrors(plan.diagnostics)) return 1;
    return flags.detailedExitcode && hasChanges(plan) ? 2 : 0;
  } finally {
    await memo.save();
    await connection.close();
  }
}
