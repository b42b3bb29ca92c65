import type { Diagnostic } from '../diagnostics.js';
import { plural } from '../media/format.js';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function where(diagnostic: Diagnostic): string {
  if (diagnostic.file === undefined) return 'postsync';
  const line = diagnostic.line === undefined ? '' : `:${diagnostic.line}${diagnostic.column === undefined ? '' : `:${diagnostic.column}`}`;
  return `${diagnostic.file}${line}`;
}

/** The job summary of `postsync validate`: the verdict, then one table row per problem. */
export function validateSummaryMarkdown(diagnostics: readonly Diagnostic[], options: { posts: number }): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const verdict =
    errors === 0
      ? `✅ ${plural(options.posts, 'post')} valid${warnings > 0 ? `, ${plural(warnings, 'warning')}` : ''}.`
      : `❌ ${plural(errors, 'error')}, ${plural(warnings, 'warning')}.`;
  const out = ['### postsync validate', '', `**${verdict}**`, ''];
  if (diagnostics.length > 0) {
    out.push('| | Where | Problem | Hint |', '|---|---|---|---|');
    for (const d of diagnostics) {
      out.push(`| ${d.severity === 'error' ? '❌' : '⚠️'} | \`${cell(where(d))}\` | ${cell(d.message)} (\`${d.code}\`) | ${cell(d.hint ?? '')} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

/** The line apply adds to the job summary once it is done, with the failures listed. */
export function applyOutcomeMarkdown(options: { line: string; failed: readonly { key: string; message: string }[] }): string {
  const out = ['', `**${options.line}**`, ''];
  for (const failure of options.failed) out.push(`- ❌ \`${cell(failure.key)}\`: ${cell(failure.message)}`);
  if (options.failed.length > 0) out.push('');
  return out.join('\n');
}
