import type { Command } from 'commander';
import { projectStatus } from '../../src/pipeline/project-status.js';
import { sectionFor } from '../../src/state/state-file.js';
import { globalOptions, openTarget } from '../context.js';
import { accountLabel, renderStatus, statusReport } from '../views/status.js';
import { terminalJson } from '../../src/text/terminal.js';

export interface StatusFlags {
  json?: boolean;
  /** Only drifted, failed, partly published and blocked posts (src/health/post-problems.ts). */
  problems?: boolean;
  refreshAll?: boolean;
}

/** Where each managed post stands on the remote, by file; per draft, whether its file is ready to schedule. */
export async function runStatus(flags: StatusFlags, command: Command): Promise<number> {
  const { config, connection, style, memo } = await openTarget(globalOptions(command));
  try {
    const { state, live, unread, drafts } = await projectStatus({ config, connection, memo, now: new Date(), refreshAll: flags.refreshAll === true });
    const section = sectionFor(state, connection.target);
    const problems = flags.problems ? await (await import('../../src/health/post-problems.js')).findPostProblems({ client: connection.client, section, live, unread, label: accountLabel(config.accounts) }) : undefined;
    const report = statusReport({ target: connection.target, state, live, drafts, aliases: config.accounts, unread, ...(problems ? { problems } : {}) });
    if (flags.json) process.stdout.write(terminalJson(report));
    else process.stdout.write(`${renderStatus(report, { label: connection.label, style, timezone: config.timezone })}\n`);
    return 0;
  } finally {
    await memo.save();
    await connection.close();
  }
}
