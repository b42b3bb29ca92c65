import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** Environment for git in tests: no system or user config, a fixed identity. */
export function gitEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Editor',
    GIT_AUTHOR_EMAIL: 'editor@example.com',
    GIT_COMMITTER_NAME: 'Editor',
    GIT_COMMITTER_EMAIL: 'editor@example.com',
  };
}

/** Runs git in `cwd` and returns its trimmed stdout; a non-zero exit rejects (with stdout/stderr on the error). */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('git', args, { cwd, env: gitEnv() });
  return stdout.trim();
}
