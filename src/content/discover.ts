import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { relativePosix } from '../text/paths.js';

/**
 * Every `*.md` file under `contentDir`, as project-relative paths with forward slashes, sorted by
 * code unit so the order is the same on every machine. Hidden entries (`.git`, `.#lock.md`) and
 * `node_modules` are skipped; symlinked files are listed, symlinked folders are not followed.
 */
export async function discoverPostFiles(options: { root: string; contentDir: string }): Promise<string[]> {
  const found: string[] = [];
  const prefix = relativePosix(options.root, options.contentDir);
  await walk(options.contentDir, prefix === '' ? '' : `${prefix}/`, found);
  // The default sort compares strings by UTF-16 code unit, as compareText does, without a call per comparison.
  return found.sort();
}

/**
 * `dir` (absolute) is `relativeDir` (project-relative, ending in `/` unless empty) in the results.
 * One promise per folder and per symlink; a folder of regular files costs none per file.
 */
async function walk(dir: string, relativeDir: string, found: string[]): Promise<void> {
  const entries: Dirent[] = await readdir(dir, { withFileTypes: true });
  const pending: Promise<void>[] = [];
  for (const entry of entries) {
    const { name } = entry;
    if (name.startsWith('.') || name === 'node_modules') continue;
    if (entry.isDirectory()) pending.push(walk(join(dir, name), `${relativeDir}${name}/`, found));
    else if (!name.endsWith('.md')) continue;
    else if (entry.isFile()) found.push(relativeDir + name);
    else if (entry.isSymbolicLink()) pending.push(isFileBehind(join(dir, name)).then((isFile) => void (isFile && found.push(relativeDir + name))));
  }
  await Promise.all(pending);
}

async function isFileBehind(link: string): Promise<boolean> {
  return (await stat(link).catch(() => undefined))?.isFile() === true;
}
