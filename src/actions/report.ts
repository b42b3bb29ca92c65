import type { ApplyResult } from '../apply/events.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Plan } from '../plan/types.js';
import { reasonSentences } from '../plan-words/reason-words.js';
import type { Markdown } from '../text/markdown.js';
import { gitHubActionsEnvironment, type Environment } from './environment.js';
import { appendStepOutputs, appendSummary, diagnosticOutputs, planOutputs } from './outputs.js';
import { applyOutcomeMarkdown } from './summary.js';
import { annotation, diagnosticAnnotation, workspacePath, type WorkflowCommand } from './workflow-commands.js';

/** What a plan, apply or validate run tells GitHub Actions. */
export interface ActionsReport {
  /** Project root: the files of diagnostics and changes are relative to it. */
  root: string;
  diagnostics: readonly Diagnostic[];
  /** The plan of `plan` and `apply`: its counts become outputs, blocked changes warnings. */
  plan?: Plan;
  /** The job-summary Markdown; only rendered inside GitHub Actions. */
  summary: () => Markdown;
}

/**
 * Where the report goes: the process environment (to find the runner's files) and a writer for
 * workflow-command lines. The CLI passes stderr, so `--json` and `--markdown` stdout stay clean;
 * the runner reads workflow commands from both streams.
 */
export interface ActionsSink {
  env: Environment;
  annotate: (command: WorkflowCommand) => void;
}

/**
 * Inside GitHub Actions (`GITHUB_ACTIONS=true`): appends the summary to GITHUB_STEP_SUMMARY, writes
 * outputs (`has-changes`, the counts, `errors`, `warnings`) to GITHUB_OUTPUT and emits one
 * `::error`/`::warning` annotation per diagnostic, with paths relative to GITHUB_WORKSPACE.
 * Outside Actions it does nothing. Returns whether it reported.
 */
export async function reportToGitHubActions(report: ActionsReport, sink: ActionsSink): Promise<boolean> {
  const actions = gitHubActionsEnvironment(sink.env, { fallbackWorkspace: report.root });
  if (!actions) return false;
  const paths = { root: report.root, workspace: actions.workspace };
  for (const diagnostic of report.diagnostics) sink.annotate(diagnosticAnnotation(diagnostic, paths));
  for (const change of report.plan?.changes ?? []) {
    if (change.action !== 'blocked') continue;
    sink.annotate(annotation('warning', `${change.key} is blocked: ${reasonSentences(change).join('; ')}`, { file: change.file === null ? undefined : workspacePath(change.file, paths), title: 'postsync blocked' }));
  }
  await appendStepOutputs(actions, report.plan ? planOutputs(report.plan) : diagnosticOutputs(report.diagnostics));
  await appendSummary(actions, report.summary());
  return true;
}

/**
 * After `apply` ran: the result line (and each failure) in the summary, an `::error` per failed
 * change on its file, and the outputs `applied` and `failed`.
 */
export async function reportApplyOutcome(outcome: { plan: Plan; result: ApplyResult; root: string; line: string }, sink: ActionsSink): Promise<boolean> {
  const actions = gitHubActionsEnvironment(sink.env, { fallbackWorkspace: outcome.root });
  if (!actions) return false;
  const paths = { root: outcome.root, workspace: actions.workspace };
  const failed = outcome.result.failed.map((failure) => ({ key: failure.key, message: failure.error.message }));
  for (const failure of failed) {
    const file = outcome.plan.changes.find((change) => change.key === failure.key)?.file ?? null;
    sink.annotate(annotation('error', `${failure.key}: ${failure.message}`, { file: file === null ? undefined : workspacePath(file, paths), title: 'postsync apply failed' }));
  }
  await appendStepOutputs(actions, { applied: outcome.result.applied.length, failed: failed.length });
  await appendSummary(actions, applyOutcomeMarkdown({ line: outcome.line, failed }));
  return true;
}
