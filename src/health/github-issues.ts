import { callGitHub, type GitHubAuth } from '../github/rest-call.js';
import { tokenLogin } from '../github/token-login.js';
import type { Markdown } from '../text/markdown.js';

/** The label that marks postsync's health issues. */
export const HEALTH_LABEL = 'postsync-health';

/** A repository's issues through the GitHub REST API, with a token (GITHUB_TOKEN in a workflow). */
export interface GitHubRepository extends GitHubAuth {
  /** `owner/name` */
  repository: string;
}

export interface Issue {
  number: number;
  title: string;
  body: string | null;
  html_url: string;
  pull_request?: unknown;
  user?: { login?: string } | null;
}

/** A call under `/repos/owner/name`; a 403 or 404 most likely lacks the workflow's permission. */
function call<T>(repo: GitHubRepository, method: string, path: string, body?: unknown): Promise<T> {
  const hint = (status: number) => (status === 403 || status === 404 ? 'Give the workflow `permissions: issues: write` (and check GITHUB_REPOSITORY).' : undefined);
  return callGitHub<T>(repo, method, `/repos/${repo.repository}${path}`, { hint, ...(body === undefined ? {} : { body }) });
}

/**
 * The open health issue whose body starts with the line `marker`, if any (one page of 100 labelled issues),
 * among those our token's login opened: anyone may open an issue with the label and the marker,
 * and such an issue is never edited or closed.
 */
export async function findHealthIssue(repo: GitHubRepository, marker: Markdown): Promise<Issue | undefined> {
  const [issues, login] = await Promise.all([call<Issue[]>(repo, 'GET', `/issues?state=open&labels=${HEALTH_LABEL}&per_page=100`), tokenLogin(repo)]);
  return issues.find((issue) => issue.pull_request === undefined && issue.user?.login === login && (issue.body ?? '').startsWith(`${marker.toString()}\n`));
}

/** An issue as we write it: the title is plain text (GitHub renders no Markdown there), the body Markdown. */
export interface IssueText {
  title: string;
  body: Markdown;
}

export function openIssue(repo: GitHubRepository, issue: IssueText): Promise<Issue> {
  return call<Issue>(repo, 'POST', '/issues', { title: issue.title, body: issue.body.toString(), labels: [HEALTH_LABEL] });
}

export function updateIssue(repo: GitHubRepository, number: number, issue: IssueText): Promise<Issue> {
  return call<Issue>(repo, 'PATCH', `/issues/${number}`, { title: issue.title, body: issue.body.toString() });
}

/** Says why in a comment, then closes the issue as completed. */
export async function closeIssue(repo: GitHubRepository, number: number, comment: Markdown): Promise<void> {
  await call(repo, 'POST', `/issues/${number}/comments`, { body: comment.toString() });
  await call(repo, 'PATCH', `/issues/${number}`, { state: 'closed', state_reason: 'completed' });
}
