import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { ApplyResult } from '../../src/apply/events.js';
import { InputError } from '../../src/errors.js';
import { parsePlan } from '../../src/plan/plan-file.js';
import { applyProject } from '../../src/pipeline/apply-project.js';
import { reportApplyOutcome } from '../../src/actions/index.js';
import { reportPlanToGitHubActions } from '../actions-report.js';
import { globalOptions, isCI, openTarget } from '../context.js';
import { confirm } from '../prompt.js';
import { applyProgressPrinter } from '../views/apply-progress.js';
import { planReport, renderJson } from '../views/plan-json.js';
import { renderPlan } from '../views/plan-human.js';

export interface ApplyFlags {
  yes?: boolean;
  prune?: boolean;
  refreshAll?: boolean;
  target?: string[];
  json?: boolean;
  concurrency?: number;
}

/**
 * `apply` plans and applies in one go (after confirmation), or applies exactly a saved plan
 * file, refusing it with exit 3 when it is stale. Exit 1 when anything failed (partial apply).
 */
export async function runApply(planFile: string | undefined, flags: ApplyFlags, command: Command): Promise<number> {
  const saved = planFile ? await parsePlan(await readFile(planFile, 'utf8').catch(() => { throw new InputError(`cannot read the plan file ${planFile}`); }), { source: planFile }) : null;
  if (saved && (flags.prune || flags.target || flags.refreshAll)) {
    throw new InputError('--prune, --target and --refresh-all are decided when planning; a saved plan is applied exactly as it is.');
  }
  const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true && !isCI();
  if (!flags.yes && !interactive) {
    throw new InputError('apply changes things on the remote and needs confirmation.', { hint: 'Outside an interactive terminal, pass --yes (review the plan first with `postsync plan`).' });
  }

  const { config, connection, style, kept } = await openTarget(globalOptions(command));
  const out = (text: string) => {
    if (!flags.json) process.stdout.write(`${text}\n`);
  };
  try {
    const outcome = await applyProject({
      config,
      connection,
      saved,
      kept,
      prune: flags.prune ?? false,
      refreshAll: flags.refreshAll === true,
      only: flags.target ?? null,
      concurrency: flags.concurrency,
      onStaleLock: (previous) =>
        process.stderr.write(style.yellow(`Note: took over the state lock left by postsync ${previous.command} (pid ${previous.pid}, started ${previous.startedAt}), which is no longer running. Its interrupted work is resumed below.\n`)),
      onPlan: async (plan) => {
        out(renderPlan(plan, { label: connection.label, style }));
        await reportPlanToGitHubActions(plan, { root: config.root, label: connection.label });
      },
      confirm: async () => {
        if (!flags.yes && !(await confirm('\nDo you want to apply these changes?'))) return false;
        out('');
        return true;
      },
      progress: (plan) => {
        const totalUploadBytes = plan.uploads.reduce((sum, upload) => sum + upload.sizeBytes, 0);
        const mode = flags.json ? 'silent' : process.stdout.isTTY && !isCI() ? 'tty' : 'plain';
        return applyProgressPrinter({ stream: process.stdout, style, mode, totalUploadBytes });
      },
    });
    switch (outcome.kind) {
      case 'invalid':
        out(style.red('\nNothing was applied: fix the errors above first.'));
        if (flags.json) process.stdout.write(renderJson(planReport('apply', outcome.plan)));
        return 1;
      case 'nothing':
        if (flags.json) process.stdout.write(renderJson(planReport('apply', outcome.plan)));
        return 0;
      case 'declined':
        out('Apply cancelled; nothing was changed.');
        return 1;
      case 'applied': {
        const { plan, result } = outcome;
        if (flags.json) process.stdout.write(renderJson(planReport('apply', plan, result)));
        out(`\n${resultLine(result)}`);
        await reportApplyOutcome({ plan, result, root: config.root, line: resultLine(result) }, { env: process.env, annotate: (line) => process.stderr.write(line) });
        return result.failed.length > 0 ? 1 : 0;
      }
    }
  } finally {
    await connection.close();
  }
}

function resultLine(result: ApplyResult): string {
  const count = (action: string) => result.applied.filter((change) => change.action === action).length;
  const line = `Apply complete: ${count('create')} created, ${count('update')} updated, ${count('delete')} deleted, ${count('move')} moved, ${count('adopt')} adopted; ${result.uploadedFiles} media uploaded.`;
  return result.failed.length > 0 ? `${line} ${result.failed.length} failed: run \`postsync plan\` to see what is left.` : line;
}
