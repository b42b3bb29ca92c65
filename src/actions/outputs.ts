import { randomUUID } from 'node:crypto';
import type { GitHubActionsEnvironment } from './environment.js';
import { hasChanges } from '../plan/has-changes.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Plan } from '../plan/types.js';
import type { Markdown } from '../text/markdown.js';
import { openNoFollow } from '../write-guard/anchored-folder.js';

/** Step outputs by name; values are written as text. */
export type StepOutputs = Record<string, string | number | boolean>;

/**
 * Outputs in the runner's multi-line-safe form: `name<<DELIMITER`, the value, `DELIMITER`.
 * The delimiter is random, so no value can end the block early; a name or value that contains
 * it anyway (astronomically unlikely) is refused rather than written ambiguously.
 */
export function formatOutputs(outputs: StepOutputs, delimiter = `postsync_${randomUUID()}`): string {
  return Object.entries(outputs)
    .map(([name, raw]) => {
      const value = String(raw);
      if (name.includes(delimiter) || value.includes(delimiter) || /[\r\n]/.test(name)) {
        throw new Error(`cannot write the step output ${JSON.stringify(name)} safely`);
      }
      return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
    })
    .join('');
}

/** Appends outputs to the step's `GITHUB_OUTPUT` file, the one place the runner names for them; nothing outside Actions. */
export async function appendStepOutputs(actions: Pick<GitHubActionsEnvironment, 'outputFile'> | null, outputs: StepOutputs): Promise<void> {
  if (actions?.outputFile) await appendRunnerFile(actions.outputFile, formatOutputs(outputs));
}

/** Appends Markdown to the job summary (`GITHUB_STEP_SUMMARY`), ending with a line break; nothing without one. */
export async function appendSummary(actions: Pick<GitHubActionsEnvironment, 'summaryFile'> | null, markdown: Markdown): Promise<void> {
  const text = markdown.toString();
  if (actions?.summaryFile) await appendRunnerFile(actions.summaryFile, text.endsWith('\n') ? text : `${text}\n`);
}

/**
 * Appends `text` to a file the runner names in the environment (`GITHUB_OUTPUT`,
 * `GITHUB_STEP_SUMMARY`): outside the project by design, but never through a symbolic link.
 */
async function appendRunnerFile(path: string, text: string): Promise<void> {
  const handle = await openNoFollow(path, { truncate: false });
  try {
    await handle.appendFile(text, 'utf8');
  } finally {
    await handle.close();
  }
}

/** Error and warning counts of a run, as outputs. */
export function diagnosticOutputs(diagnostics: readonly Diagnostic[]): StepOutputs {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return { errors, warnings: diagnostics.length - errors };
}

/**
 * The plan as outputs: `has-changes` (would apply send or record anything) and the count of each
 * action.
 */
export function planOutputs(plan: Plan): StepOutputs {
  const { summary } = plan;
  return {
    'has-changes': hasChanges(plan),
    create: summary.create,
    adopt: summary.adopt,
    update: summary.update,
    unschedule: summary.unschedule,
    delete: summary.delete,
    move: summary.move,
    blocked: summary.blocked,
    noop: summary.noop,
    uploads: plan.uploads.length,
    ...diagnosticOutputs(plan.diagnostics),
  };
}
