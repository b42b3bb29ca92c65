import { out } from '../output.js';
import type { Command } from 'commander';
import { projectStatus } from '../../src/pipeline/project-status.js';
import { sectionFor } from '../../src/state/state-file.js';
import { globalOptions, openProject } from '../context.js';
import { accountLabel, renderStatus, statusReport } from '../views/status.js';
import { term, terminalJson } from '../../src/text/terminal.js';
import { gitHubActionsEnvironment } from '../../src/actions/environment.js';
import { appendSummary } from '../../src/actions/outputs.js';
import { md } from '../../src/text/markdown.js';
import { FAILED_PROBLEMS, problemsSummaryMarkdown } from '../views/problems-summary.js';

export interface StatusFlags {
  json?: boolean;
  /** Only drifted, failed, partly published and blocked posts (src/health/post-problems.ts). */
  problems?: boolean;
  /** With --problems: exit 1 when a post failed to publish, was partly published or is blocked. */
  exitCode?: boolean;
  refreshAll?: boolean;
}

/** Where each managed post stands on the remote, by file; per draft, whether its file is ready to schedule. */
export async function runStatus(flags: StatusFlags, command: Command): Promise<number> {
  const { config, connection, style, memo } = await openProject(globalOptions(command));
  try {
    const { state, live, unread, drafts } = await projectStatus({ config, connection, memo, now: new Date(), refreshAll: flags.refreshAll === true });
    const section = sectionFor(state, connection.project);
    const problems = flags.problems ? await (await import('../../src/health/post-problems.js')).findPostProblems({ client: connection.client, section, live, unread, label: accountLabel(config.accounts) }) : undefined;
    const report = statusReport({ target: connection.project, state, live, drafts, aliases: config.accounts, unread, ...(problems ? { problems } : {}) });
    if (flags.json) out.write(terminalJson(report));
    else out.write(term`${renderStatus(report, { label: connection.label, style, timezone: config.timezone })}\n`);
    if (problems === undefined) return 0;
    const actions = gitHubActionsEnvironment(process.env, { fallbackWorkspace: config.root });
    await appendSummary(actions, md`${problemsSummaryMarkdown(report.posts, { title: 'postsync status --problems' })}\n`);
    const failed = report.posts.some((post) => post.problems?.some((problem) => FAILED_PROBLEMS.has(problem.kind)));
    return flags.exitCode === true && failed ? 1 : 0;
  } finally {
    await memo.save();
    await connection.close();
  }
}
