import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Post } from '../api/types.js';
import type { Config } from '../config/types.js';
import { compareText } from '../text/ordering.js';
import { relativePosix } from '../text/paths.js';
import { importKey, importPath } from './post-file.js';

/** Names tried per post before giving up (`<key>`, `<key>-2`, ...). */
export const MAX_NAME_ATTEMPTS = 50;

export interface NameContext {
  config: Pick<Config, 'root' | 'contentDir' | 'timezone'>;
  /** Keys in state, and keys given earlier in this import. */
  takenKeys: ReadonlySet<string>;
  /** Files chosen earlier in this import. */
  takenFiles: ReadonlySet<string>;
  /** key → project-relative file, of every post file in the content folder. */
  keysInFiles: ReadonlyMap<string, string>;
  /** The file text for a key at a path (media references depend on the path). */
  render(file: string, key: string): string;
}

export type NameChoice =
  | { kind: 'new'; key: string; file: string; text: string }
  /** A file an earlier import wrote for this post, but stopped before recording it in state. */
  | { kind: 'existing'; key: string; file: string; text: string }
  /** Such a file exists but no longer says what the remote post says. */
  | { kind: 'conflict'; key: string; file: string }
  | { kind: 'exhausted' };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The key and file for an imported post: `<slug>-<id8>`, else with `-2`, `-3`... so that nothing
 * clashes and no existing file is overwritten. A post file outside the state whose key is of this
 * family was written by an earlier import that stopped before recording it: it is reused when it
 * holds exactly the text this import would write, and otherwise reported, since a second file
 * for the same post would make the next apply create a duplicate.
 */
export async function chooseName(post: Post, context: NameContext): Promise<NameChoice> {
  const { config } = context;
  const base = importKey(post);
  const family = new RegExp(`^${escapeRegExp(base)}(?:-\\d+)?$`);
  const leftovers = [...context.keysInFiles]
    .filter(([key, file]) => family.test(key) && !context.takenKeys.has(key) && !context.takenFiles.has(file))
    .sort(([a], [b]) => compareText(a, b));
  for (const [key, file] of leftovers) {
    const text = context.render(file, key);
    const onDisk = await readFile(resolve(config.root, file), 'utf8').catch(() => undefined);
    if (onDisk === text) return { kind: 'existing', key, file, text };
  }
  if (leftovers.length > 0) return { kind: 'conflict', key: leftovers[0]![0], file: leftovers[0]![1] };

  for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt++) {
    const key = attempt === 1 ? base : `${base}-${attempt}`;
    if (context.takenKeys.has(key) || context.keysInFiles.has(key)) continue;
    const file = relativePosix(config.root, resolve(config.contentDir, importPath(post, key, { timezone: config.timezone })));
    if (context.takenFiles.has(file)) continue;
    if (await stat(resolve(config.root, file)).then(() => true, () => false)) continue;
    return { kind: 'new', key, file, text: context.render(file, key) };
  }
  return { kind: 'exhausted' };
}
