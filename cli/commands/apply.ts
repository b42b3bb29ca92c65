import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { applyPlan } from '../../src/apply/apply-plan.js';
import type { ApplyResult } from '../../src/apply/events.js';
import { verifyPlanFresh } from '../../src/apply/freshness.js';
import { hasErrors } from '../../src/diagnostics.js';
import { InputError } from '../../src/errors.js';
import { parsePlan } from '../../src/plan/plan-file.js';
import type { Plan } from '../../src/plan/types.js';
import { buildPlan } from '../../src/run/build-plan.js';
import { hasChanges } from '../../src/run/plan-summary.js';
import { acquireLock } from '../../src/state/lock.js';
import { StateStore } from '../../src/state/state-store.js';
import { reportPlanToGitHubActions } from '../actions-report.js';
import { globalOptions, isCI, openPlanCaches, openTarget } from '../context.js';
import { confirm } from '../prompt.js';
import { applyProgressPrinter } from '../views/apply-progress.js';
import { planReport, renderJson } from '../views/plan-json.js';
import { renderPlan } from '../views/plan-human.js';
import { reportApplyOutcome } from '../../src/actions/index.js';

export interface ApplyFlags {
  yes?: boolean;
  prune?: boolean;
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
  if (saved && (flags.prune || flags.target)) {
    throw new InputError('--prune and --target are decided when planning; a saved plan is applied exactly as it is.');
  }
  const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true && !isCI();
  if (!flags.yes && !interactive) {
    throw new InputError('apply changes things on the remote and needs confirmation.', { hint: 'Outside an interactive terminal, pass --yes (review the plan first with `postsync plan`).' });
  }

  const options = globalOptions(command);
  const { config, connection, style } = await openTarget(options);
  const out = (text: string) => {
    if (!flags.json) process.stdout.write(`${text}\n`);
  };
  try {
    const release = await acquireLock(config.statePath, {
      command: 'apply',
      onStaleLock: (previous) =>
        process.stderr.write(style.yellow(`Note: took over the state lock left by postsync ${previous.command} (pid ${previous.pid}, started ${previous.startedAt}), which is no longer running. Its interrupted work is resumed below.\n`)),
    });
    try {
      const store = await StateStore.open(config.statePath, connection.target);
      let plan: Plan;
      if (saved) {
        await verifyPlanFresh({ plan: saved, client: connection.client, target: connection.target, stateHash: store.sectionHash(), root: config.root });
        plan = saved;
      } else {
        const state = { version: 1 as const, targets: { [connection.target.id]: store.section } };
        const caches = openPlanCaches(config, options);
        plan = (await buildPlan({ config, connection, state, prune: flags.prune ?? false, only: flags.target ?? null, now: new Date(), caches })).plan;
        await caches.kept.save();
      }
      out(renderPlan(plan, { label: connection.label, style }));
      await reportPlanToGitHubActions(plan, { root: config.root, label: connection.label });
      if (hasErrors(plan.diagnostics)) {
        out(style.red('\nNothing was applied: fix the errors above first.'));
        if (flags.json) process.stdout.write(renderJson(planReport('apply', plan)));
        return 1;
      }
      if (!hasChanges(plan)) {
        if (flags.json) process.stdout.write(renderJson(planReport('apply', plan)));
        return 0;
      }
      if (!flags.yes && !(await confirm('\nDo you want to apply these changes?'))) {
        out('Apply cancelled; nothing was changed.');
        return 1;
      }
      const totalUploadBytes = plan.uploads.reduce((sum, upload) => sum + upload.sizeBytes, 0);
      const mode = flags.json ? 'silent' : process.stdout.isTTY && !isCI() ? 'tty' : 'plain';
      out('');
      const result = await applyPlan({
        plan,
        client: connection.client,
        store,
        root: config.root,
        concurrency: flags.concurrency,
        onEvent: applyProgressPrinter({ stream: process.stdout, style, mode, totalUploadBytes }),
      });
      if (flags.json) process.stdout.write(renderJson(planReport('apply', plan, result)));
      out(`\n${resultLine(result)}`);
      await reportApplyOutcome({ plan, result, root: config.root, line: resultLine(result) }, { env: process.env, annotate: (line) => process.stderr.write(line) });
      return result.failed.length > 0 ? 1 : 0;
    } finally {
      await release();
    }
  } finally {
    await connection.close();
  }
}

function resultLine(result: ApplyResult): string {
  const count = (action: string) => result.applied.filter((change) => change.action === action).length;
  const line = `Apply complete: ${count('create')} created, ${count('update')} updated, ${count('delete')} deleted, ${count('move')} moved; ${result.uploadedFiles} media uploaded.`;
  return result.failed.length > 0 ? `${line} ${result.failed.length} failed: run \`postsync plan\` to see what is left.` : line;
}
