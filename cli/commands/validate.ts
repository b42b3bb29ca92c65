import { out } from '../output.js';
import { term } from '../../src/text/terminal.js';
import type { Command } from 'commander';
import { hasErrors } from '../../src/diagnostics.js';
import { draftReadiness } from '../../src/pipeline/draft-readiness.js';
import { desiredDiagnostics } from '../../src/pipeline/read-desired.js';
import { validateProject } from '../../src/pipeline/validate-project.js';
import { reportToGitHubActions, validateSummaryMarkdown } from '../../src/actions/index.js';
import { globalOptions, openProject } from '../context.js';
import { diagnosticCounts, renderDiagnostics } from '../views/diagnostics.js';
import { notReadyNote, renderDrafts } from '../views/drafts.js';
import { plural } from '../views/format.js';
import { diagnosticsReport, renderJson } from '../views/plan-json.js';
import { writeWorkflowCommand } from '../workflow-output.js';

/** Checks every file and every post against its accounts' rules; sends nothing that writes. Exit 1 on any error. */
export async function runValidate(flags: { json?: boolean }, command: Command): Promise<number> {
  const { config, connection, style, memo } = await openProject(globalOptions(command));
  try {
    const desired = await validateProject({ config, connection, memo, now: new Date() });
    const posts = desired.posts.length + desired.held.length;
    const drafts = draftReadiness(desired);
    const diagnostics = desiredDiagnostics(desired);
    if (flags.json) {
      out.write(renderJson({ ...diagnosticsReport('validate', diagnostics), drafts }));
    } else {
      if (diagnostics.length > 0) out.write(term`${renderDiagnostics(diagnostics, style)}\n\n`);
      if (drafts.length > 0) out.write(term`${renderDrafts(drafts, style)}\n\n`);
      const { errors, warnings } = diagnosticCounts(diagnostics);
      const notReady = notReadyNote(drafts.filter((draft) => !draft.ready).length);
      const verdict = errors === 0 ? style.green(term`${plural(posts, 'post')} valid.`) : style.red(term`${plural(errors, 'error')}, ${plural(warnings, 'warning')}.`);
      out.write(term`${verdict}${notReady}\n`);
    }
    await reportToGitHubActions({ root: config.root, diagnostics, summary: () => validateSummaryMarkdown(diagnostics, { posts }) }, { env: process.env, annotate: writeWorkflowCommand });
    return hasErrors(diagnostics) ? 1 : 0;
  } finally {
    await memo.save();
    await connection.close();
  }
}
