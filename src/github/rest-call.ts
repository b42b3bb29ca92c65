import { PostsyncError } from '../errors.js';

/** Where GitHub's REST API is and the token to call it with (`GITHUB_TOKEN` in a workflow). */
export interface GitHubAuth {
  /** e.g. https://api.github.com, or a GitHub Enterprise server's; a trailing slash is ignored. */
  apiUrl: string;
  token: string;
}

/**
 * One call of GitHub's REST API: `path` from the API's root (`/repos/owner/name/...`), a JSON
 * body when given, the answer's JSON (undefined for an empty answer). No answer, or an answer
 * other than 2xx, is a PostsyncError naming the call and GitHub's message; `hint` may say what to
 * do about a status.
 */
export async function callGitHub<T>(auth: GitHubAuth, method: string, path: string, options: { body?: unknown; hint?: (status: number) => string | undefined } = {}): Promise<T> {
  const { body } = options;
  const apiUrl = auth.apiUrl.replace(/\/+$/, '');
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: {
      Accept: 'application/vnd.github+json',
      Authorization: `Bearer ${auth.token}`,
      'X-GitHub-Api-Version': '2022-11-28',
      'User-Agent': 'postsync',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).catch((error: unknown) => {
    throw new PostsyncError(`no answer from the GitHub API at ${apiUrl}: ${(error as Error).message}`);
  });
  const text = await response.text();
  if (!response.ok) {
    throw new PostsyncError(`GitHub answered ${response.status} to ${method} ${path.split('?')[0]}: ${messageOf(text).slice(0, 300)}`, { hint: options.hint?.(response.status) });
  }
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** GitHub's `message` in an error answer, else the answer's text. */
function messageOf(text: string): string {
  try {
    return (JSON.parse(text) as { message?: string }).message ?? text;
  } catch {
    return text;
  }
}
