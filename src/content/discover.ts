import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CONFIG_FILE_NAMES } from '../config/config-file.js';
import { relativePosix } from '../text/paths.js';
import { isInSnippets, type SnippetPlace } from './snippet-files.js';

/**
 * Every `*.md` file under `contentDir`, as project-relative paths with forward slashes, sorted by
 * code unit so the order is the same on every machine. Hidden entries (`.git`, `.#lock.md`),
 * `node_modules` and the snippets folder (when the content folder holds it) are skipped, and so is
 * a folder below the content folder that holds a postsync.yaml: another calendar of the repository,
 * whose files are its posts (`postsync calendars` gives a path to the deepest calendar holding it).
 * Symlinked files are listed, symlinked folders are not followed.
 */
export async function discoverPostFiles(options: SnippetPlace & { contentDir: string }): Promise<string[]> {
  const found: string[] = [];
  if (isInSnippets(options, options.contentDir)) return found;
  const prefix = relativePosix(options.root, options.contentDir);
  await walk({ dir: options.contentDir, relativeDir: prefix === '' ? '' : `${prefix}/`, top: true }, { found, place: options });
  // The default sort compares strings by UTF-16 code unit, as compareText does, without a call per comparison.
  return found.sort();
}

/**
 * `dir` (absolute) is `relativeDir` (project-relative, ending in `/` unless empty) in the results.
 * One promise per folder and per symlink; a folder of regular files costs none per file.
 */
async function walk(at: { dir: string; relativeDir: string; top: boolean }, into: { found: string[]; place: SnippetPlace }): Promise<void> {
  const { dir, relativeDir } = at;
  const { found } = into;
  const entries: Dirent[] = await readdir(dir, { withFileTypes: true });
  if (!at.top && entries.some((entry) => (CONFIG_FILE_NAMES as readonly string[]).includes(entry.name) && !entry.isDirectory())) return;
  const pending: Promise<void>[] = [];
  for (const entry of entries) {
    const { name } = entry;
    if (name.startsWith('.') || name === 'node_modules') continue;
    if (entry.isDirectory()) {
      const folder = join(dir, name);
      if (!isInSnippets(into.place, folder)) pending.push(walk({ dir: folder, relativeDir: `${relativeDir}${name}/`, top: false }, into));
    } else if (!name.endsWith('.md')) continue;
    else if (entry.isFile()) found.push(relativeDir + name);
    else if (entry.isSymbolicLink()) pending.push(isFileBehind(join(dir, name)).then((isFile) => void (isFile && found.push(relativeDir + name))));
  }
  await Promise.all(pending);
}

async function isFileBehind(link: string): Promise<boolean> {
  return (await stat(link).catch(() => undefined))?.isFile() === true;
}
