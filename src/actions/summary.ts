import type { Diagnostic } from '../diagnostics.js';
import { plural } from '../media/format.js';
import { inlineCode, markdownMessage, md, withinBytes, type Markdown } from '../text/markdown.js';
import { APPLY_OUTCOME_BUDGET, PLAN_SUMMARY_BUDGET } from './limits.js';

function where(diagnostic: Diagnostic): string {
  if (diagnostic.file === undefined) return 'postsync';
  const line = diagnostic.line === undefined ? '' : `:${diagnostic.line}${diagnostic.column === undefined ? '' : `:${diagnostic.column}`}`;
  return `${diagnostic.file}${line}`;
}

/** What stands where rows were left out to stay within GitHub's limit of the job summary. */
export function summaryCutNote(left: number, what: 'change' | 'problem'): Markdown {
  return md`\n_…and ${plural(left, `more ${what}`)} not shown: GitHub limits the job summary. Run \`postsync ${what === 'change' ? 'plan' : 'validate'}\` locally to see them all._\n`;
}

/** The job summary of `postsync validate`: the verdict, then one table row per problem (as many as GitHub keeps). */
export function validateSummaryMarkdown(diagnostics: readonly Diagnostic[], options: { posts: number }): Markdown {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const verdict =
    errors === 0
      ? `✅ ${plural(options.posts, 'post')} valid${warnings > 0 ? `, ${plural(warnings, 'warning')}` : ''}.`
      : `❌ ${plural(errors, 'error')}, ${plural(warnings, 'warning')}.`;
  const head = md`### postsync validate\n\n**${verdict}**\n`;
  if (diagnostics.length === 0) return head;
  const rows = diagnostics.map(
    (d) => md`| ${d.severity === 'error' ? '❌' : '⚠️'} | ${inlineCode(where(d), { table: true })} | ${markdownMessage(d.message)} (${inlineCode(d.code)}) | ${markdownMessage(d.hint ?? '')} |\n`,
  );
  return withinBytes({ head: md`${head}\n| | Where | Problem | Hint |\n|---|---|---|---|\n`, parts: rows, maxBytes: PLAN_SUMMARY_BUDGET, cutNote: (left) => summaryCutNote(left, 'problem') });
}

/** The line apply adds to the job summary once it is done, with the failures listed (as many as fit its budget). */
export function applyOutcomeMarkdown(options: { line: string; failed: readonly { key: string; message: string }[] }): Markdown {
  const head = md`\n**${markdownMessage(options.line)}**\n`;
  if (options.failed.length === 0) return head;
  const rows = options.failed.map((failure) => md`- ❌ ${inlineCode(failure.key)}: ${markdownMessage(failure.message)}\n`);
  return withinBytes({ head: md`${head}\n`, parts: rows, maxBytes: APPLY_OUTCOME_BUDGET, cutNote: (left) => md`\n_…and ${plural(left, 'more failure')} not shown: GitHub limits the job summary; the step's log lists them all._\n` });
}
