import { closeIssue, findHealthIssue, openIssue, updateIssue, type GitHubRepository, type Issue } from './github-issues.js';
import { markdownLink, md } from '../text/markdown.js';
import { issueBody, issueMarker, issueTitle, type HealthReport, type IssueLinks } from './health-report.js';

export type HealthOutcome = { kind: 'opened' | 'updated' | 'closed'; issue: Issue } | { kind: 'healthy' };

/**
 * Keeps one GitHub issue per calendar in step with its health: opens it (or updates the open one)
 * while something is wrong, and closes it with a comment once all is well. The issue is found by
 * its label and the hidden marker line naming the calendar's folder.
 */
export async function reportHealth(report: HealthReport, links: IssueLinks, repo: GitHubRepository): Promise<HealthOutcome> {
  const marker = issueMarker(links.folder);
  const open = await findHealthIssue(repo, marker);
  if (report.problems.length + report.failures.length === 0) {
    if (open === undefined) return { kind: 'healthy' };
    await closeIssue(repo, open.number, md`All is well again${links.runUrl ? md` (${markdownLink(md`run`, links.runUrl)})` : md``}: the plan shows no changes and no managed post has problems.`);
    return { kind: 'closed', issue: open };
  }
  const issue = { title: issueTitle(report, links.folder), body: issueBody(report, links) };
  if (open !== undefined) return { kind: 'updated', issue: await updateIssue(repo, open.number, issue) };
  return { kind: 'opened', issue: await openIssue(repo, issue) };
}
