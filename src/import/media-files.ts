import { existsSync, type Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, posix, resolve } from 'node:path';
import pLimit from 'p-limit';
import { sha256File } from '../content/media-memo.js';
import { compareText } from '../text/ordering.js';
import { relativePosix } from '../text/paths.js';

/** Parallel hashes: enough to overlap I/O, far from file-descriptor limits. */
const HASH_CONCURRENCY = 8;

/**
 * Finds project files with the given sha256 digests, to reference the media of an imported post.
 * Only files whose size matches a wanted upload are hashed, so a large project costs a directory
 * walk and a few hashes. Hidden entries and `node_modules` are skipped, symlinks are not followed.
 * Returns sha256 → project-relative path (forward slashes; the first in path order when several
 * files have the same bytes).
 */
export async function locateMediaFiles(root: string, wanted: ReadonlyMap<string, { sizeBytes: number }>): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (wanted.size === 0) return found;
  const sizes = new Set([...wanted.values()].map((media) => media.sizeBytes));
  const sameSize: string[] = [];
  await walk(root, async (path) => {
    const stats = await stat(path).catch(() => undefined);
    if (stats?.isFile() === true && sizes.has(stats.size)) sameSize.push(path);
  });
  sameSize.sort(compareText);
  const limit = pLimit(HASH_CONCURRENCY);
  const hashes = await Promise.all(sameSize.map((path) => limit(() => sha256File(path).catch(() => undefined))));
  sameSize.forEach((path, index) => {
    const sha256 = hashes[index]?.sha256;
    if (sha256 !== undefined && wanted.has(sha256) && !found.has(sha256)) found.set(sha256, relativePosix(root, path));
  });
  return found;
}

async function walk(dir: string, visit: (path: string) => Promise<void>): Promise<void> {
  const entries: Dirent[] = await readdir(dir, { withFileTypes: true }).catch(() => []);
  await Promise.all(
    entries.map(async (entry) => {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path, visit);
      if (entry.isFile()) return visit(path);
    }),
  );
}

/**
 * How a post file refers to a media file: from the project root, unless a file of that name also
 * sits next to the post (media paths are looked up there first); then relative to the post.
 */
export function mediaReference(root: string, postFile: string, mediaFile: string): string {
  const besidePost = posix.join(posix.dirname(postFile), mediaFile);
  if (besidePost === mediaFile || !existsSync(resolve(root, besidePost))) return mediaFile;
  return posix.relative(posix.dirname(postFile), mediaFile);
}
