import type { Command } from 'commander';
import { projectStatus } from '../../src/pipeline/project-status.js';
import { globalOptions, openTarget } from '../context.js';
import { renderStatus, statusReport } from '../views/status.js';

export interface StatusFlags {
  json?: boolean;
}

/** Where each managed post stands on the remote, by file; per draft, whether its file is ready to schedule. */
export async function runStatus(flags: StatusFlags, command: Command): Promise<number> {
  const { config, connection, style, kept } = await openTarget(globalOptions(command));
  try {
    const { state, live, drafts } = await projectStatus({ config, connection, kept, now: new Date() });
    const report = statusReport({ target: connection.target, state, live, drafts, aliases: config.accounts });
    if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else process.stdout.write(`${renderStatus(report, { label: connection.label, style, timezone: config.timezone })}\n`);
    return 0;
  } finally {
    await connection.close();
  }
}
