import { PostsyncError } from '../errors.js';

/** The label that marks postsync's health issues. */
export const HEALTH_LABEL = 'postsync-health';

/** A repository's issues through the GitHub REST API, with a token (GITHUB_TOKEN in a workflow). */
export interface GitHubRepository {
  /** e.g. https://api.github.com */
  apiUrl: string;
  /** `owner/name` */
  repository: string;
  token: string;
}

export interface Issue {
  number: number;
  title: string;
  body: string | null;
  html_url: string;
  pull_request?: unknown;
}

async function call<T>(repo: GitHubRepository, method: string, path: string, body?: unknown): Promise<T> {
  const url = `${repo.apiUrl.replace(/\/+$/, '')}/repos/${repo.repository}${path}`;
  const response = await fetch(url, {
    method,
    headers: {
      Accept: 'application/vnd.github+json',
      Authorization: `Bearer ${repo.token}`,
      'X-GitHub-Api-Version': '2022-11-28',
      'User-Agent': 'postsync-health',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).catch((error: unknown) => {
    throw new PostsyncError(`no answer from the GitHub API at ${repo.apiUrl}: ${(error as Error).message}`);
  });
  const text = await response.text();
  if (!response.ok) {
    const message = (() => {
      try {
        return (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {
        return text;
      }
    })();
    throw new PostsyncError(`GitHub answered ${response.status} to ${method} /repos/${repo.repository}${path.split('?')[0]}: ${message.slice(0, 300)}`, {
      hint: response.status === 403 || response.status === 404 ? 'Give the workflow `permissions: issues: write` (and check GITHUB_REPOSITORY).' : undefined,
    });
  }
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** The open health issue whose body carries `marker`, if any (one page of 100 labelled issues). */
export async function findHealthIssue(repo: GitHubRepository, marker: string): Promise<Issue | undefined> {
  const issues = await call<Issue[]>(repo, 'GET', `/issues?state=open&labels=${HEALTH_LABEL}&per_page=100`);
  return issues.find((issue) => issue.pull_request === undefined && (issue.body ?? '').includes(marker));
}

export function openIssue(repo: GitHubRepository, issue: { title: string; body: string }): Promise<Issue> {
  return call<Issue>(repo, 'POST', '/issues', { ...issue, labels: [HEALTH_LABEL] });
}

export function updateIssue(repo: GitHubRepository, number: number, issue: { title: string; body: string }): Promise<Issue> {
  return call<Issue>(repo, 'PATCH', `/issues/${number}`, issue);
}

/** Says why in a comment, then closes the issue as completed. */
export async function closeIssue(repo: GitHubRepository, number: number, comment: string): Promise<void> {
  await call(repo, 'POST', `/issues/${number}/comments`, { body: comment });
  await call(repo, 'PATCH', `/issues/${number}`, { state: 'closed', state_reason: 'completed' });
}
