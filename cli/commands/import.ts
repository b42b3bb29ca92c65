import { out } from '../output.js';
import type { Command } from 'commander';
import { relativePosix } from '../../src/text/paths.js';
import { importPosts } from '../../src/import/import-posts.js';
import { globalOptions, openProject } from '../context.js';
import { importReport, renderImport } from '../views/import.js';
import { term, terminalJson } from '../../src/text/terminal.js';

export interface ImportFlags {
  dryRun?: boolean;
  status?: string;
  all?: boolean;
  json?: boolean;
}

/** Exit 0 (also when posts were skipped, each with its reason), 1 when a file or record could not be written. */
export async function runImport(flags: ImportFlags, command: Command): Promise<number> {
  const { config, connection, style } = await openProject(globalOptions(command));
  try {
    const dryRun = flags.dryRun ?? false;
    const result = await importPosts({
      config,
      connection,
      filter: { all: flags.all ?? false, ...(flags.status !== undefined ? { status: flags.status } : {}) },
      dryRun,
      now: () => new Date(),
    });
    if (flags.json) out.write(terminalJson(importReport(result, { target: connection.project, dryRun })));
    else out.write(term`${renderImport(result, { label: connection.label, style, dryRun, statePath: relativePosix(config.root, config.statePath) })}\n`);
    return result.outcome.failed.length > 0 ? 1 : 0;
  } finally {
    await connection.close();
  }
}
