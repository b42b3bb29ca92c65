import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import pLimit from 'p-limit';
import type { Config } from '../config/types.js';
import { discoverPostFiles } from '../content/discover.js';
import { postKeyFromPath } from '../content/post-key.js';
import { parsePostFile } from '../content/parse.js';
import { relativePosix } from '../text/paths.js';

const READ_CONCURRENCY = 16;

/**
 * The key of every post file in the content folder (front-matter `id`, else the path), so an
 * import never gives a new file a key that another file already uses. Files that cannot be
 * parsed count with their path key. A missing content folder has no keys.
 * Returns key → project-relative file (the first file in path order for a shared key).
 */
export async function contentKeys(config: Pick<Config, 'root' | 'contentDir'>): Promise<Map<string, string>> {
  const files = await discoverPostFiles(config).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const limit = pLimit(READ_CONCURRENCY);
  const keys = await Promise.all(
    files.map((file) =>
      limit(async () => {
        const absolute = resolve(config.root, file);
        const pathKey = postKeyFromPath(relativePosix(config.contentDir, absolute));
        const bytes = await readFile(absolute).catch(() => undefined);
        const id = bytes === undefined ? undefined : (parsePostFile(file, bytes).frontMatter as { id?: unknown } | undefined)?.id;
        return typeof id === 'string' && id.trim() !== '' ? id : pathKey;
      }),
    ),
  );
  const byKey = new Map<string, string>();
  files.forEach((file, index) => {
    if (!byKey.has(keys[index]!)) byKey.set(keys[index]!, file);
  });
  return byKey;
}
