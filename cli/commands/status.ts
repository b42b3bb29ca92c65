import type { Command } from 'commander';
import { listAllPosts } from '../../src/run/remote-snapshot.js';
import { readState, sectionFor } from '../../src/state/store.js';
import { globalOptions, openTarget } from '../context.js';
import { accountLabel, renderStatus, statusReport } from '../views/status.js';

export interface StatusFlags {
  json?: boolean;
  /** Only drifted, failed, partly published and blocked posts (src/health/post-problems.ts). */
  problems?: boolean;
}

/**
 * Where each managed post stands on the remote, by file. One listing of every post (pages of
 * 100) is joined with the state by post id, instead of one read per managed post.
 */
export async function runStatus(flags: StatusFlags, command: Command): Promise<number> {
  const { config, connection, style } = await openTarget(globalOptions(command));
  try {
    const state = await readState(config.statePath);
    const managed = Object.keys(sectionFor(state, connection.target).posts).length > 0;
    const live = managed ? await listAllPosts(connection.client) : [];
    const problems = flags.problems ? await (await import('../../src/health/post-problems.js')).findPostProblems({ client: connection.client, section: sectionFor(state, connection.target), live, label: accountLabel(config.accounts) }) : undefined;
    const report = statusReport({ target: connection.target, state, live, aliases: config.accounts, ...(problems ? { problems } : {}) });
    if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else process.stdout.write(`${renderStatus(report, { label: connection.label, style, timezone: config.timezone })}\n`);
    return 0;
  } finally {
    await connection.close();
  }
}
