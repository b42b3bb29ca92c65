import { hash } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { isInside } from '../text/paths.js';
import { MAX_TEXT_FILE_BYTES } from '../text/text-file-bytes.js';
import type { FileLookups } from './file-lookups.js';

/** A snippet file a post includes (`{{> snippets/signature.md }}`), and the digest of its bytes when it was read. */
export interface SnippetUse {
  /** Project-relative, forward slashes. */
  path: string;
  /** Null when there is no such file (the post has an error then). */
  digest: string | null;
}

interface SnippetFile {
  text: string;
  digest: string;
}

/**
 * A snippet file's text, read once per read of the content folder (`lookups`); undefined when
 * it is missing, not a regular file, too large, or leads outside the project through a symlink
 * (as media paths may not). Synchronous: templates are rendered synchronously.
 */
export function snippetFile(root: string, path: string, lookups: FileLookups): SnippetFile | undefined {
  return lookups.onceSync(`snippet\0${root}\0${path}`, () => {
    try {
      const absolute = resolve(root, path);
      if (!isInside(realpathSync(root), realpathSync(absolute))) return undefined;
      const stats = statSync(absolute);
      if (!stats.isFile() || stats.size > MAX_TEXT_FILE_BYTES) return undefined;
      const bytes = readFileSync(absolute);
      return { text: bytes.toString('utf8'), digest: hash('sha1', bytes, 'base64') };
    } catch {
      return undefined;
    }
  });
}

/** The snippets as found now are those a post was read with: none changed, appeared or vanished. */
export function sameSnippets(uses: readonly SnippetUse[], root: string, lookups: FileLookups): boolean {
  return uses.every((use) => (snippetFile(root, use.path, lookups)?.digest ?? null) === use.digest);
}

/** The digest of a post file's bytes together with the snippets it includes: what its fingerprint names. */
export function digestWithSnippets(digest: string, uses: readonly SnippetUse[]): string {
  if (uses.length === 0) return digest;
  return hash('sha1', [digest, ...uses.map((use) => `${use.path}\0${use.digest ?? ''}`)].join('\n'), 'base64');
}
