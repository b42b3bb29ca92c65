import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { CONFIG_FILE_NAMES } from '../config/config-file.js';
import type { Config } from '../config/types.js';
import { isInside, relativePosix } from '../text/paths.js';
import { discoverPostFiles } from './discover.js';
import { mediaRequestsOf } from './media-paths.js';
import { parsePostFile } from './parse.js';
import { isInSnippets } from './snippet-files.js';

/**
 * The paths of `paths` (relative to the calendar's root, forward slashes; changed, added or
 * removed) that the calendar owns, in their order: its postsync.yaml, its state file, its post
 * files (`*.md` under the content folder), its snippets, and the media files its posts name (at
 * either place a media path is looked up: next to the post, then from the root, whether the file
 * is there or not). Nothing else (a README, package files, workflows, the vendored action) changes
 * what the calendar plans. Post files are read only when a path is left that those rules do not
 * place, and then only their front-matter's `media:` is used.
 */
export async function ownedPaths(config: Config, paths: readonly string[]): Promise<string[]> {
  const owned = new Set(paths.filter((path) => ownedByPlace(config, path)));
  const rest = paths.filter((path) => !owned.has(path));
  if (rest.length > 0) {
    const media = await mediaPaths(config);
    for (const path of rest) if (media.has(path)) owned.add(path);
  }
  return paths.filter((path) => owned.has(path));
}

/** Owned by where it is: the config file, the state file, a post file or a snippet. */
function ownedByPlace(config: Config, path: string): boolean {
  if ((CONFIG_FILE_NAMES as readonly string[]).includes(path)) return true;
  const absolute = join(config.root, path);
  if (absolute === config.statePath) return true;
  if (isInSnippets(config, absolute)) return true;
  if (!path.endsWith('.md') || !isInside(config.contentDir, absolute)) return false;
  // As discoverPostFiles walks: no hidden entry, no node_modules.
  return !relativePosix(config.contentDir, absolute).split('/').some((part) => part.startsWith('.') || part === 'node_modules');
}

/** Every project-relative path a post's `media:` entry may name, as written in the post files now. */
async function mediaPaths(config: Config): Promise<Set<string>> {
  const found = new Set<string>();
  const files = await discoverPostFiles(config).catch(() => []);
  for (const file of files) {
    const bytes = await readFile(join(config.root, file)).catch(() => null);
    if (bytes === null) continue;
    const frontMatter = parsePostFile(file, bytes).frontMatter as { media?: unknown } | undefined;
    for (const { folder, ref } of mediaRequestsOf(frontMatter?.media, file)) {
      for (const candidate of [posix.join(folder, ref), posix.normalize(ref)]) found.add(candidate.replace(/^\.\//, ''));
    }
  }
  return found;
}
