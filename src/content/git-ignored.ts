import { execFileSync } from 'node:child_process';
import { PostsyncError } from '../errors.js';
import { relativePosix } from '../text/paths.js';
import type { FileLookups } from './file-lookups.js';

/** Long enough for a cold disk and a large folder, short enough that a stuck git stops the run. */
const GIT_TIMEOUT_MS = 30_000;

/**
 * Whether git ignores any of some project-relative paths in `folder` (forward slashes). Git is
 * asked once per read of the content folder (`lookups`), and only when a post includes a snippet,
 * for every ignored file and folder under `folder`. Outside a git work tree, or without git,
 * nothing is ignored: there is no checkout whose untracked files could hold a secret. Any other
 * failure of git stops the run rather than let an ignored file through.
 */
export function gitIgnoredIn(root: string, folder: string, lookups: FileLookups): (paths: readonly string[]) => boolean {
  const ignored = lookups.onceSync(`git-ignored\0${root}\0${folder}`, () => ignoredUnder(root, relativePosix(root, folder)));
  return (paths) => paths.some((path) => ignored.some((entry) => (entry.endsWith('/') ? path.startsWith(entry) : path === entry)));
}

/** `git ls-files` of the ignored untracked entries under `folder`, relative to `root`; an ignored folder ends in `/`. */
function ignoredUnder(root: string, folder: string): string[] {
  let output: string;
  try {
    // core.fsmonitor off: no hook program of the repository's config runs on our behalf.
    const args = ['-c', 'core.fsmonitor=false', 'ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory', '--', folder];
    output = execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { status?: number | null; stderr?: string };
    if (failure.code === 'ENOENT' || (failure.status === 128 && /not a git repository/i.test(failure.stderr ?? ''))) return [];
    throw new PostsyncError(`git could not tell which snippet files it ignores: ${(failure.stderr ?? failure.message).trim().split('\n')[0]}`, { hint: 'Check that git works in this folder (git status), then run the command again.' });
  }
  return output.split('\0').filter((entry) => entry !== '');
}
