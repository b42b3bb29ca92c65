import type { Command } from 'commander';
import { diagnosticCounts, renderDiagnostics } from '../views/diagnostics.js';
import { hasErrors } from '../../src/diagnostics.js';
import { readDesired } from '../../src/run/read-desired.js';
import { readState, sectionFor } from '../../src/state/store.js';
import { globalOptions, openPlanCaches, openTarget } from '../context.js';
import { diagnosticsReport, renderJson } from '../views/plan-json.js';
import { plural } from '../views/format.js';
import { reportToGitHubActions, validateSummaryMarkdown } from '../../src/actions/index.js';

/** Checks every file and every post against its accounts' rules; sends nothing that writes. Exit 1 on any error. */
export async function runValidate(flags: { json?: boolean }, command: Command): Promise<number> {
  const options = globalOptions(command);
  const { config, connection, style } = await openTarget(options);
  try {
    const caches = openPlanCaches(config, options);
    const section = sectionFor(await readState(config.statePath, { known: caches.kept.knownStates() }), connection.target);
    const desired = await readDesired({
      config,
      client: connection.client,
      now: new Date(),
      caches,
      ownedKeys: new Set(Object.keys(section.posts)),
    });
    await caches.kept.save();
    if (flags.json) {
      process.stdout.write(renderJson(diagnosticsReport('validate', desired.diagnostics)));
    } else {
      if (desired.diagnostics.length > 0) process.stdout.write(`${renderDiagnostics(desired.diagnostics, style)}\n\n`);
      const { errors, warnings } = diagnosticCounts(desired.diagnostics);
      const verdict = errors === 0 ? style.green(`${plural(desired.posts.length + desired.unchanged.length, 'post')} valid.`) : style.red(`${plural(errors, 'error')}, ${plural(warnings, 'warning')}.`);
      process.stdout.write(`${verdict}\n`);
    }
    await reportToGitHubActions({ root: config.root, diagnostics: desired.diagnostics, summary: () => validateSummaryMarkdown(desired.diagnostics, { posts: desired.posts.length + desired.unchanged.length }) }, { env: process.env, annotate: (line) => process.stderr.write(line) });
    return hasErrors(desired.diagnostics) ? 1 : 0;
  } finally {
    await connection.close();
  }
}
