import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { term, type Terminal } from '../../src/text/terminal.js';
import type { ApplyResult } from '../../src/apply/events.js';
import { hasErrors } from '../../src/diagnostics.js';
import { InputError } from '../../src/errors.js';
import { pruneHeader, pruneSetting } from '../../src/plan/prune-setting.js';
import { blockedByErrors, heldByRules } from '../../src/plan/posts-with-errors.js';
import type { Plan } from '../../src/plan/types.js';
import { parsePlan } from '../../src/plan/plan-file.js';
import { applyProject } from '../../src/pipeline/apply-project.js';
import { reportApplyOutcome } from '../../src/actions/index.js';
import { reportPlanToGitHubActions } from '../actions-report.js';
import { globalOptions, isCI, openProject } from '../context.js';
import { askApproval } from '../prompt.js';
import { applyProgressPrinter } from '../views/apply-progress.js';
import { planReport, renderJson } from '../views/plan-json.js';
import { renderPlan } from '../views/plan-human.js';
import { accountAliases } from '../views/account-aliases.js';
import { writeWorkflowCommand } from '../workflow-output.js';
import { err, out as stdout } from '../output.js';
import { choicesOf, planChoices, type ChoiceFlags } from '../plan-choices.js';
import { timeText } from '../../src/zoned-time/index.js';

export interface ApplyFlags extends ChoiceFlags {
  yes?: boolean;
  prune?: boolean;
  refreshAll?: boolean;
  target?: string[];
  strict?: boolean;
  json?: boolean;
  concurrency?: number;
}

/**
 * `apply` plans and applies in one go (after confirmation), or applies exactly a saved plan
 * file, refusing it with exit 3 when it is stale. The posts of files with errors are blocked and
 * the rest is applied (with --strict, nothing is while any file has an error). Exit 1 when a file
 * has an error or anything failed (partial apply).
 */
export async function runApply(planFile: string | undefined, flags: ApplyFlags, command: Command): Promise<number> {
  const saved = planFile ? await parsePlan(await readFile(planFile, 'utf8').catch(() => { throw new InputError(`cannot read the plan file ${planFile}`); }), { source: planFile }) : null;
  if (saved && (flags.prune !== undefined || flags.target || flags.refreshAll || planChoices(flags) !== undefined)) {
    throw new InputError('--prune, --no-prune, --target, --refresh-all, --adopt and --recreate are decided when planning; a saved plan is applied exactly as it is.');
  }
  const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true && !isCI();
  if (!flags.yes && !interactive) {
    throw new InputError('apply changes things on the remote and needs confirmation.', { hint: 'Outside an interactive terminal, pass --yes (review the plan first with `postsync plan`).' });
  }

  const { config, connection, style, memo } = await openProject(globalOptions(command));
  const prune = pruneSetting({ flag: flags.prune, config: config.prune });
  // A saved plan was pruned or not when it was made: only a fresh plan says what decided.
  const pruneNote = saved ? null : pruneHeader(prune, { config: config.prune });
  const out = (text: Terminal) => {
    if (!flags.json) stdout.write(term`${text}\n`);
  };
  try {
    const outcome = await applyProject({
      config,
      connection,
      saved,
      memo,
      prune: prune.on,
      refreshAll: flags.refreshAll === true,
      selection: flags.target ?? null,
      ...choicesOf(flags),
      strict: flags.strict ?? false,
      concurrency: flags.concurrency,
      onStaleLock: (previous) =>
        err.write(style.yellow(term`Note: took over the state lock left by postsync ${previous.command} (pid ${previous.pid}, started ${timeText(previous.startedAt, config.timezone)}), which is no longer running. Its interrupted work is resumed below.\n`)),
      onPlan: async (plan) => {
        out(renderPlan(plan, { label: connection.label, pruneNote, style, timezone: config.timezone, aliases: accountAliases(config) }));
        await reportPlanToGitHubActions(plan, { root: config.root, label: connection.label, timezone: config.timezone, pruneNote });
      },
      approve: async () => {
        if (!flags.yes && !(await askApproval(term`\nDo you want to apply these changes?`))) return false;
        out(term``);
        return true;
      },
      progress: (plan) => {
        const totalUploadBytes = plan.uploads.reduce((sum, upload) => sum + upload.sizeBytes, 0);
        const mode = flags.json ? 'silent' : process.stdout.isTTY && !isCI() ? 'tty' : 'plain';
        return applyProgressPrinter({ stream: process.stdout, style, mode, totalUploadBytes });
      },
    });
    const invalid = hasErrors(outcome.plan.diagnostics);
    switch (outcome.kind) {
      case 'invalid':
        out(style.red(term`\nNothing was applied (--strict): fix the errors above first.`));
        if (flags.json) stdout.write(renderJson(planReport('apply', outcome.plan)));
        return 1;
      case 'nothing':
        if (flags.json) stdout.write(renderJson(planReport('apply', outcome.plan)));
        if (invalid) out(style.red(term`\nNothing was applied: ${[blockedPart(outcome.plan), 'fix the errors above, then apply again.'].filter((part) => part !== null).join('; ')}`));
        return invalid ? 1 : 0;
      case 'declined':
        out(term`Apply cancelled; nothing was changed.`);
        return 1;
      case 'applied': {
        const { plan, result } = outcome;
        const line = resultLine(result, plan);
        if (flags.json) stdout.write(renderJson(planReport('apply', plan, result)));
        out(term`\n${invalid ? style.red(term`${line}`) : line}`);
        // On a person's machine, the state written here is not yet where CI reads it (the apply workflow pushes its own).
        if (config.stateHome.kind === 'branch' && !isCI() && !flags.json) {
          err.write(style.yellow(term`Note: this calendar keeps its state on the branch ${config.stateHome.branch}: run postsync state push --merge to record this apply there (until then, the next apply elsewhere adopts these posts instead of knowing them).\n`));
        }
        await reportApplyOutcome({ plan, result, root: config.root, line }, { env: process.env, annotate: writeWorkflowCommand });
        return result.failed.length > 0 || invalid ? 1 : 0;
      }
    }
  } finally {
    await memo.save();
    await connection.close();
  }
}

/** `blocked 2 (invalid files)`, `(held by a rule)` or both counted, or null when no post is blocked by errors. */
function blockedPart(plan: Plan): string | null {
  const blocked = blockedByErrors(plan).length;
  const held = heldByRules(plan);
  if (blocked === 0) return null;
  if (held === 0) return `blocked ${blocked} (invalid files)`;
  return held === blocked ? `blocked ${blocked} (held by a rule)` : `blocked ${blocked} (${blocked - held} by invalid files, ${held} held by a rule)`;
}

/** `2 unscheduled, ` when removed files' posts went back to draft; nothing otherwise. */
function unscheduled(count: number): string {
  return count === 0 ? '' : `${count} unscheduled, `;
}

/** What was done; with posts blocked by invalid files, `Applied 12, blocked 2 (invalid files): …`. */
function resultLine(result: ApplyResult, plan: Plan): string {
  const count = (action: string) => result.applied.filter((change) => change.action === action).length;
  const done = `${count('create')} created, ${count('update')} updated, ${unscheduled(count('unschedule'))}${count('delete')} deleted, ${count('move')} moved, ${count('adopt')} adopted; ${result.uploadedFiles} media uploaded.`;
  const blocked = blockedPart(plan);
  let line = blocked === null ? `Apply complete: ${done}` : `Applied ${result.applied.length}, ${blocked}: ${done}`;
  if (result.failed.length > 0) line += ` ${result.failed.length} failed: run \`postsync plan\` to see what is left.`;
  else if (hasErrors(plan.diagnostics)) line += ' Fix the errors above, then apply again.';
  return line;
}
