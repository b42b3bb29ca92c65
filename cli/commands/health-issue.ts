import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { InputError } from '../../src/errors.js';
import { healthReport, issueBody, issueTitle, type CheckRun, type IssueLinks } from '../../src/health/health-report.js';
import { placeProblems } from '../../src/health/problem-lines.js';
import { reportHealth } from '../../src/health/report-health.js';
import { globalOptions, loadProjectConfig } from '../context.js';
import { term, terminalMessage, terminalPath } from '../../src/text/terminal.js';
import { out } from '../output.js';

export interface HealthIssueFlags {
  plan: string;
  planExit: string;
  status: string;
  statusExit: string;
  log?: string[];
  print?: boolean;
}

/** A command's JSON output, or null when it printed none (it could not run). */
async function runOf<T>(file: string, exitCode: string): Promise<CheckRun<T>> {
  if (!/^\d+$/.test(exitCode)) throw new InputError(`an exit code must be a whole number, got ${exitCode}`);
  const text = await readFile(file, 'utf8').catch(() => '');
  try {
    return { exitCode: Number(exitCode), document: text.trim() === '' ? null : (JSON.parse(text) as T) };
  } catch {
    return { exitCode: Number(exitCode), document: null };
  }
}

/**
 * `postsync health-issue`: turns what `plan --detailed-exitcode --json` and `status --problems
 * --json` found into one GitHub issue for this calendar (opened, updated, or closed when all is
 * well), through the REST API with GITHUB_TOKEN. `--print` shows the issue instead.
 */
export async function runHealthIssue(flags: HealthIssueFlags, command: Command): Promise<number> {
  const options = globalOptions(command);
  const root = resolve(options.dir ?? process.cwd());
  const env = process.env;
  const logs = await Promise.all((flags.log ?? []).map((file) => readFile(file, 'utf8').catch(() => '')));
  const found = healthReport({ plan: await runOf(flags.plan, flags.planExit), status: await runOf(flags.status, flags.statusExit), log: logs.join('\n') });
  // The aliases place account problems on their line; a configuration that cannot be read is itself reported by the plan.
  const aliases = await loadProjectConfig(options).then((config) => config.accounts, () => ({}));
  const report = { ...found, problems: await placeProblems(found.problems, { root, aliases }) };
  const workspace = env.GITHUB_WORKSPACE || root;
  const folder = relative(workspace, root).split('\\').join('/') || '.';
  const server = env.GITHUB_SERVER_URL || 'https://github.com';
  const links: IssueLinks = {
    folder,
    blobBase: env.GITHUB_REPOSITORY && env.GITHUB_SHA ? `${server}/${env.GITHUB_REPOSITORY}/blob/${env.GITHUB_SHA}/` : null,
    runUrl: env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID ? `${server}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}` : null,
  };
  const count = report.problems.length + report.failures.length;
  if (flags.print) {
    out.write(count === 0 ? term`All is well: no issue to open.\n` : term`${issueTitle(report, folder)}\n\n${terminalMessage(issueBody(report, links).toString())}`);
    return 0;
  }
  if (!env.GITHUB_TOKEN || !env.GITHUB_REPOSITORY) {
    throw new InputError('health-issue needs GITHUB_TOKEN and GITHUB_REPOSITORY to reach the GitHub API', { hint: 'In the workflow, pass `GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}` in the step env; elsewhere, use --print.' });
  }
  const outcome = await reportHealth(report, links, { apiUrl: env.GITHUB_API_URL || 'https://api.github.com', repository: env.GITHUB_REPOSITORY, token: env.GITHUB_TOKEN });
  const where = folder === '.' ? term`` : term` in ${terminalPath(folder)}`;
  if (outcome.kind === 'healthy') out.write(term`All is well${where}; no health issue is open.\n`);
  else if (outcome.kind === 'closed') out.write(term`All is well${where}: closed issue #${outcome.issue.number}.\n`);
  else out.write(term`${count} problem${count === 1 ? '' : 's'}${where}: ${outcome.kind} issue #${outcome.issue.number} ${outcome.issue.html_url}\n`);
  return 0;
}
