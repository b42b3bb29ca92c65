import { PostsyncError } from '../errors.js';
import { callGitHub, type GitHubAuth } from './rest-call.js';

/** Who writes with a workflow's `GITHUB_TOKEN`: GitHub shows this login on its comments and issues. */
export const ACTIONS_BOT_LOGIN = 'github-actions[bot]';

/**
 * The login GitHub shows on what `auth`'s token writes: the token's user (a personal token), or
 * `github-actions[bot]` when GitHub does not say who the token is, as for the workflow's
 * `GITHUB_TOKEN`, which may not read `/user`. What we find again by a marker (the sticky comment,
 * the health issue) must be written by this login: anyone else can write the marker too.
 */
export async function tokenLogin(auth: GitHubAuth): Promise<string> {
  try {
    const user = await callGitHub<{ login?: unknown } | undefined>(auth, 'GET', '/user');
    return typeof user?.login === 'string' && user.login !== '' ? user.login : ACTIONS_BOT_LOGIN;
  } catch (error) {
    if (error instanceof PostsyncError && /^GitHub answered 40[134] /.test(error.message)) return ACTIONS_BOT_LOGIN;
    throw error;
  }
}
