import type { Diagnostic } from '../diagnostics.js';
import { plural } from '../media/format.js';
import { inlineCode, markdownMessage, withinBytes } from '../text/markdown.js';
import { APPLY_OUTCOME_BUDGET, PLAN_SUMMARY_BUDGET } from './limits.js';

function where(diagnostic: Diagnostic): string {
  if (diagnostic.file === undefined) return 'postsync';
  const line = diagnostic.line === undefined ? '' : `:${diagnostic.line}${diagnostic.column === undefined ? '' : `:${diagnostic.column}`}`;
  return `${diagnostic.file}${line}`;
}

/** What stands where rows were left out to stay within GitHub's limit of the job summary. */
export function summaryCutNote(left: number, what: string): string {
  return `\n_…and ${plural(left, `more ${what}`)} not shown: GitHub limits the job summary. Run \`postsync ${what === 'change' ? 'plan' : 'validate'}\` locally to see them all._\n`;
}

/** The job summary of `postsync validate`: the verdict, then one table row per problem (as many as GitHub keeps). */
export function validateSummaryMarkdown(diagnostics: readonly Diagnostic[], options: { posts: number }): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const verdict =
    errors === 0
      ? `✅ ${plural(options.posts, 'post')} valid${warnings > 0 ? `, ${plural(warnings, 'warning')}` : ''}.`
      : `❌ ${plural(errors, 'error')}, ${plural(warnings, 'warning')}.`;
  const head = ['### postsync validate', '', `**${verdict}**`, ''];
  if (diagnostics.length === 0) return head.join('\n');
  head.push('| | Where | Problem | Hint |', '|---|---|---|---|');
  const rows = diagnostics.map(
    (d) => `${d.severity === 'error' ? '❌' : '⚠️'} | ${inlineCode(where(d), { table: true })} | ${markdownMessage(d.message)} (\`${d.code}\`) | ${markdownMessage(d.hint ?? '')} |`,
  );
  return withinBytes({ head: `${head.join('\n')}\n`, parts: rows.map((row) => `| ${row}\n`), tail: '', maxBytes: PLAN_SUMMARY_BUDGET, cutNote: (left) => summaryCutNote(left, 'problem') });
}

/** The line apply adds to the job summary once it is done, with the failures listed (as many as fit its budget). */
export function applyOutcomeMarkdown(options: { line: string; failed: readonly { key: string; message: string }[] }): string {
  const head = `\n**${options.line}**\n`;
  if (options.failed.length === 0) return `${head}`;
  const rows = options.failed.map((failure) => `- ❌ ${inlineCode(failure.key)}: ${markdownMessage(failure.message)}\n`);
  return withinBytes({ head: `${head}\n`, parts: rows, tail: '', maxBytes: APPLY_OUTCOME_BUDGET, cutNote: (left) => `\n_…and ${plural(left, 'more failure')} not shown: GitHub limits the job summary; the step's log lists them all._\n` });
}
