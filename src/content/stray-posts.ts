import { execFile } from 'node:child_process';
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { join, posix } from 'node:path';
import { promisify } from 'node:util';
import { CONFIG_FILE_NAMES } from '../config/config-file.js';
import type { Diagnostic } from '../diagnostics.js';
import { parseGitPathList } from '../text/git-path-list.js';
import { isHiddenPath, isInside, relativePosix } from '../text/paths.js';
import { isInSnippets, type SnippetPlace } from './snippet-files.js';

/** Long enough for a cold disk and a large repository, short enough that a stuck git stops waiting. */
const GIT_TIMEOUT_MS = 30_000;
/** A post's front-matter names `scheduledAt` or `targets` near its top: this much of a file is read. */
const HEAD_BYTES = 4096;

/**
 * The Markdown files of the project outside the content folder that look like posts (front-matter
 * on line 1 naming `scheduledAt:` or `targets:`), each a warning: postsync never reads them, so
 * the post a writer saved there is silently not published. Only the files git lists (tracked, or
 * untracked and not ignored) are looked at, so the work is bounded by the repository and ignored
 * folders are never read; outside a git work tree, or without git, nothing is looked at. README
 * files, docs with front-matter of their own, snippets and the files of another calendar (a folder
 * below the root holding its own postsync.yaml) are not posts and are left out.
 */
export async function strayPostFiles(place: SnippetPlace & { contentDir: string }): Promise<Diagnostic[]> {
  const listed = await gitListed(place.root);
  const calendars = listed.filter((path) => (CONFIG_FILE_NAMES as readonly string[]).includes(posix.basename(path)) && path.includes('/')).map((path) => `${posix.dirname(path)}/`);
  const content = relativePosix(place.root, place.contentDir);
  const folder = content === '' ? './' : `${content}/`;
  return listed
    .filter((path) => path.endsWith('.md') && !isHiddenPath(path) && !path.split('/').includes('node_modules'))
    .filter((path) => !isInside(place.contentDir, join(place.root, path)) && !isInSnippets(place, join(place.root, path)))
    .filter((path) => !calendars.some((calendar) => path.startsWith(calendar)))
    .filter((path) => looksLikePost(join(place.root, path)))
    .map((file) => ({
      severity: 'warning' as const,
      code: 'post-outside-content',
      message: `\`${file}\` is outside the content folder \`${folder}\`; postsync reads posts only there`,
      file,
      line: 1,
      column: 1,
      expected: `post files in \`${folder}\``,
      found: 'front-matter with `scheduledAt` or `targets` outside it',
      hint: `Move it into \`${folder}\`, or set \`content:\` in postsync.yaml to the folder that holds your posts.`,
    }));
}

/** The files git lists under `root` (tracked, and untracked not ignored), relative to it; none outside a work tree. */
async function gitListed(root: string): Promise<string[]> {
  try {
    // core.fsmonitor off: no hook program of the repository's config runs on our behalf.
    const { stdout } = await promisify(execFile)('git', ['-c', 'core.fsmonitor=false', 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ':(glob)**/*.md', ...CONFIG_FILE_NAMES.map((name) => `:(glob)**/${name}`)], {
      cwd: root,
      encoding: 'utf8',
      timeout: GIT_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    return [...new Set(parseGitPathList(stdout))].sort();
  } catch {
    // Not a work tree, no git, or a git that fails: this is a warning's search, never a reason to stop.
    return [];
  }
}

/** Front-matter on line 1 (after a BOM) naming `scheduledAt:` or `targets:` at the top level, in the file's first bytes. */
function looksLikePost(path: string): boolean {
  let head: string;
  try {
    // Never through a symbolic link: a link out of the project is no post of it.
    const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      head = buffer.subarray(0, readSync(fd, buffer, 0, HEAD_BYTES, 0)).toString('utf8').replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
  if (!head.startsWith('---\n')) return false;
  const end = head.indexOf('\n---', 3);
  const frontMatter = end === -1 ? head : head.slice(0, end);
  return /^(scheduledAt|targets)[ \t]*:/m.test(frontMatter);
}
