import { callGitHub } from '../github/rest-call.js';
import { tokenLogin } from '../github/token-login.js';
import type { Markdown } from '../text/markdown.js';
import type { RunEvent } from '../github/run-event.js';
import type { Environment } from './environment.js';

/** Where the comment goes and the token that may write it (`GITHUB_TOKEN`). */
export interface PullRequestTarget {
  /** `GITHUB_API_URL`: https://api.github.com, or a GitHub Enterprise server's. */
  apiUrl: string;
  /** `owner/name`. */
  repository: string;
  number: number;
  token: string;
}

/** What happened to the comment. */
export type CommentOutcome = 'created' | 'updated' | 'unchanged' | 'none';

/**
 * The pull request of this run, from the runner's environment: the event payload
 * (`readRunEvent`) names it. Returns the first thing missing instead when it is not there.
 */
export function pullRequestTarget(env: Environment, event: RunEvent | null): PullRequestTarget | { missing: string } {
  const token = env.GITHUB_TOKEN;
  if (!token) return { missing: "GITHUB_TOKEN (the postsync action gives the calendar command the job's token with `comment: true`; a step that runs `postsync calendar` itself sets GITHUB_TOKEN in its env)" };
  const repository = env.GITHUB_REPOSITORY;
  if (!repository || !repository.includes('/')) return { missing: 'GITHUB_REPOSITORY' };
  const number = event?.pull_request?.number;
  if (typeof number !== 'number') return { missing: 'a pull request (the workflow runs on `pull_request`)' };
  return { apiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''), repository, number, token };
}

interface IssueComment {
  id: number;
  body?: string;
  user?: { login?: string } | null;
}

/**
 * Keeps one comment per pull request, found again by `marker` (an HTML comment, its first line:
 * the rest may quote a key that holds another calendar's marker) among
 * the comments our token's login wrote, and edited in place on every push; a comment anyone else
 * wrote is never edited, marker or not. `body` null means there is nothing to say: no comment is made,
 * and one made earlier is edited to say so (a stale calendar would mislead).
 */
export async function upsertStickyComment(target: PullRequestTarget, options: { marker: Markdown; body: Markdown | null; nothingBody: Markdown }): Promise<CommentOutcome> {
  const marker = options.marker.toString();
  const existing = await findComment(target, { marker, login: await tokenLogin(target) });
  if (options.body === null && existing === undefined) return 'none';
  const body = `${marker}\n${(options.body ?? options.nothingBody).toString()}`;
  if (existing !== undefined) {
    if (existing.body === body) return 'unchanged';
    await callGitHub(target, 'PATCH', `/repos/${target.repository}/issues/comments/${existing.id}`, { body: { body } });
    return 'updated';
  }
  await callGitHub(target, 'POST', `/repos/${target.repository}/issues/${target.number}/comments`, { body: { body } });
  return 'created';
}

/** Comments come 100 a page, oldest first; the first of `login`'s comments with the marker is the one kept. */
async function findComment(target: PullRequestTarget, { marker, login }: { marker: string; login: string }): Promise<IssueComment | undefined> {
  for (let page = 1; ; page++) {
    const comments = await callGitHub<IssueComment[]>(target, 'GET', `/repos/${target.repository}/issues/${target.number}/comments?per_page=100&page=${page}`);
    const found = comments.find((comment) => comment.user?.login === login && comment.body?.startsWith(`${marker}\n`) === true);
    if (found !== undefined) return found;
    if (comments.length < 100) return undefined;
  }
}
