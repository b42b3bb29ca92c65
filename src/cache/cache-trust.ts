import { execFileSync } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Why the cache folder `dir` (below `root`) must not be used this run, or null when it may. What
 * the cache holds reaches the calendar page and skips checks of post files, so it is trusted only
 * when this machine wrote it: not when its folder (or the one holding it) is a symbolic link, and
 * not when git tracks a file under it (a commit, such as a pull request's, put it there). Git is
 * asked only when the folder exists; no git, or no repository, leaves the cache trusted.
 */
export function cacheDistrust(root: string, dir: string): string | null {
  for (const folder of [dirname(dir), dir]) {
    const stats = lstatSync(folder, { throwIfNoEntry: false });
    if (stats === undefined) return null;
    if (stats.isSymbolicLink()) return `the cache is not used this run: ${folder} is a symbolic link (remove it; postsync makes a real folder)`;
  }
  return gitTracksFilesUnder(root, dir) ? `the cache is not used this run: git tracks files under ${dir}, which only this machine may write (untrack them: git rm -r --cached '${dir.replaceAll("'", "'\\''")}')` : null;
}

function gitTracksFilesUnder(root: string, dir: string): boolean {
  try {
    const tracked = execFileSync('git', ['ls-files', '-z', '--', dir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 });
    return tracked !== '';
  } catch {
    // No git, not a repository, or git failed: nothing says a commit put files there.
    return false;
  }
}
