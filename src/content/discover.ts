import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { compareText } from './ordering.js';
import { relativePosix } from './paths.js';

/**
 * Every `*.md` file under `contentDir`, as project-relative paths with forward slashes, sorted by
 * code unit so the order is the same on every machine. Hidden entries (`.git`, `.#lock.md`) and
 * `node_modules` are skipped; symlinked files are listed, symlinked folders are not followed.
 */
export async function discoverPostFiles(options: { root: string; contentDir: string }): Promise<string[]> {
  const found: string[] = [];
  await walk(options.contentDir, found);
  return found.map((path) => relativePosix(options.root, path)).sort(compareText);
}

async function walk(dir: string, found: string[]): Promise<void> {
  const entries: Dirent[] = await readdir(dir, { withFileTypes: true });
  await Promise.all(
    entries.map(async (entry) => {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path, found);
      if (!entry.name.endsWith('.md')) return;
      if (entry.isFile() || (entry.isSymbolicLink() && (await stat(path).catch(() => undefined))?.isFile() === true)) found.push(path);
    }),
  );
}
