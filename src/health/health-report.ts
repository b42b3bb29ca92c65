import { codeBlock, htmlComment, inlineCode, joinMarkdown, markdownLink, markdownMessage, md, type Markdown } from '../text/markdown.js';
import { compareText } from '../text/ordering.js';
import type { Diagnostic } from '../diagnostics.js';
import type { ChangeWithReasons } from '../plan-words/plan-json.js';
import type { PostProblem } from './post-problems.js';

/** What a health check ran: a postsync command's exit code and its JSON document (null when it printed none). */
export interface CheckRun<T> {
  exitCode: number;
  document: T | null;
}

/** The parts of `plan --json` a health check reads. */
export interface PlanDocument {
  changes: Pick<ChangeWithReasons, 'action' | 'key' | 'file' | 'reasons' | 'diagnostics'>[];
  diagnostics: Diagnostic[];
}

/** The parts of `status --problems --json` a health check reads. */
export interface StatusDocument {
  posts: { key: string; file: string; problems?: PostProblem[] }[];
}

/** One thing wrong, tied to a project file (and a line of it, when known). */
export interface HealthProblem {
  /** Project-relative, forward slashes. */
  file: string | null;
  line: number | null;
  /** The account a post problem concerns (to find its line in the file). */
  socialAccountId?: string;
  text: string;
}

export interface HealthReport {
  problems: HealthProblem[];
  /** Commands that could not run at all, with what they said. */
  failures: { command: string; exitCode: number; log: string }[];
}

/**
 * Everything a scheduled check found: invalid files (the plan's error diagnostics), changes the
 * remote does not have yet or blocked ones (the plan: merges not applied, drift to put back),
 * and managed posts that need a person (`status --problems`); plus each command that could not
 * run. `plan --detailed-exitcode` exits 2 with changes, which is not a failure.
 */
export function healthReport(input: { plan: CheckRun<PlanDocument>; status: CheckRun<StatusDocument>; log: string }): HealthReport {
  const problems: HealthProblem[] = [];
  const failures: HealthReport['failures'] = [];
  const { plan, status } = input;
  if (plan.document === null) failures.push({ command: 'postsync plan --detailed-exitcode', exitCode: plan.exitCode, log: input.log });
  else {
    for (const diagnostic of plan.document.diagnostics.filter((d) => d.severity === 'error')) {
      problems.push({ file: diagnostic.file ?? null, line: diagnostic.line ?? null, text: `invalid file: ${diagnostic.message}${diagnostic.code ? ` (\`${diagnostic.code}\`)` : ''}` });
    }
    for (const change of plan.document.changes) {
      // Blocked by errors of its files: those errors are listed above, where they are to be fixed.
      if (change.action === 'noop' || change.diagnostics !== undefined) continue;
      problems.push({ file: change.file, line: null, text: `${change.action === 'blocked' ? 'blocked' : `not applied (${change.action} ${inlineCode(change.key).toString()})`}: ${change.reasons.join('; ')}` });
    }
  }
  if (status.document === null || status.exitCode !== 0) failures.push({ command: 'postsync status --problems', exitCode: status.exitCode, log: input.log });
  else {
    for (const post of status.document.posts) {
      for (const problem of post.problems ?? []) {
        problems.push({ file: post.file, line: null, ...(problem.socialAccountId === undefined ? {} : { socialAccountId: problem.socialAccountId }), text: `${problem.kind}: ${problem.message}` });
      }
    }
  }
  problems.sort((a, b) => compareText(a.file ?? '', b.file ?? '') || (a.line ?? 0) - (b.line ?? 0) || compareText(a.text, b.text));
  return { problems, failures };
}

/** Where a problem points: the file in the repository at the checked commit, and its line. */
export interface IssueLinks {
  /** e.g. https://github.com/acme/content/blob/<sha>/ */
  blobBase: string | null;
  /** The project folder from the repository root, forward slashes (`.` at the root). */
  folder: string;
  /** A link to the workflow run, when known. */
  runUrl: string | null;
}

/**
 * The hidden first line that tells this calendar's health issue apart from every other issue. `%`,
 * `<` and `>` of the folder are percent-encoded, so no folder name can end the HTML comment.
 */
export function issueMarker(folder: string): Markdown {
  return htmlComment(`postsync-health calendar=${folder.replace(/[%<>\r\n]/g, encodeURIComponent)}`);
}

export function issueTitle(report: HealthReport, folder: string): string {
  const count = report.problems.length + report.failures.length;
  return `postsync health: ${count} problem${count === 1 ? '' : 's'}${folder === '.' ? '' : ` in ${folder}`}`;
}

/** The issue's Markdown: one line per problem, linked to its file and line. */
export function issueBody(report: HealthReport, links: IssueLinks): Markdown {
  const where = links.folder === '.' ? md`this repository` : inlineCode(links.folder);
  const lines = [issueMarker(links.folder), md`postsync's health check found problems in ${where}${links.runUrl ? md` (${markdownLink(md`run`, links.runUrl)})` : md``}.`, md``];
  for (const failure of report.failures) {
    const log = failure.log.trim().split('\n').slice(-20).join('\n');
    lines.push(md`- ${inlineCode(failure.command)} could not run (exit ${failure.exitCode}):`, md``, codeBlock(log, { indent: '  ' }), md``);
  }
  for (const problem of report.problems) {
    const path = problem.file === null ? null : links.folder === '.' ? problem.file : `${links.folder}/${problem.file}`;
    const label = path === null ? md`project` : inlineCode(`${path}${problem.line === null ? '' : `:${problem.line}`}`);
    // Only problems placed in a file that exists (a line) are linked: a removed file has no page.
    const target = path !== null && problem.line !== null && links.blobBase !== null ? markdownLink(label, `${links.blobBase}${path.split('/').map(encodeURIComponent).join('/')}#L${problem.line}`) : label;
    lines.push(md`- ${target}: ${markdownMessage(problem.text)}`);
  }
  lines.push(md``, md`\`postsync plan\` and \`postsync status --problems\`${links.folder === '.' ? md`` : md` in ${inlineCode(links.folder)}`} show the details. Each health check updates this issue and closes it when all is well.`);
  return md`${joinMarkdown(lines, '\n')}\n`;
}
