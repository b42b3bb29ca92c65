import { hash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_SNIPPETS_DIR } from '../config/load-config.js';
import type { SnippetRefusal } from '../templates/index.js';
import { isHiddenPath, isInside, relativePosix } from '../text/paths.js';
import { readTextFileBytes, TEXT_FILE_LIMIT } from '../text/text-file-bytes.js';
import type { FileLookups } from './file-lookups.js';
import { gitIgnoredIn } from './git-ignored.js';

/** A snippet file a post includes (`{{> snippets/signature.md }}`), and the digest of its bytes when it was read. */
export interface SnippetUse {
  /** Project-relative, forward slashes. */
  path: string;
  /** Null when there is no such file or it is refused (the post has an error then). */
  digest: string | null;
}

interface SnippetFile {
  text: string;
  digest: string;
}

/** Where snippets are read from: the project root and the snippets folder (absolute; `<root>/snippets` when absent). */
export interface SnippetPlace {
  root: string;
  snippetsDir?: string;
}

/** The absolute snippets folder of `place`. */
export function snippetsDirOf(place: SnippetPlace): string {
  return place.snippetsDir ?? join(place.root, DEFAULT_SNIPPETS_DIR);
}

/**
 * Whether `path` (absolute) is the snippets folder or below it. A file there is a snippet, never a
 * post, even when the content folder holds the snippets folder (`content: .`).
 */
export function isInSnippets(place: SnippetPlace, path: string): boolean {
  return isInside(snippetsDirOf(place), path);
}

/**
 * A snippet file's text, read once per read of the content folder (`lookups`); a refusal when its
 * real path leaves the snippets folder (a symlink out, or the folder itself leading outside the
 * project), is hidden, is ignored by git or is too large; undefined when it is missing or not a
 * regular file. The path is project-relative and already inside the folder by name (the renderer
 * checks that). Synchronous: templates are rendered synchronously.
 */
export function snippetFile(path: string, place: SnippetPlace, lookups: FileLookups): SnippetFile | SnippetRefusal | undefined {
  const { root } = place;
  const folder = snippetsDirOf(place);
  const named = `\`${relativePosix(root, folder)}/\``;
  return lookups.onceSync(`snippet\0${folder}\0${path}`, () => {
    let realRoot: string;
    let realFolder: string;
    let realFile: string;
    try {
      realRoot = realpathSync(root);
      realFolder = realpathSync(folder);
      realFile = realpathSync(resolve(root, path));
    } catch {
      return undefined;
    }
    if (!isInside(realRoot, realFolder)) return { code: 'snippet-outside-folder', why: `the snippets folder ${named} is a symlink that leads outside the project`, hint: 'Make the snippets folder a real folder of the project.' };
    if (!isInside(realFolder, realFile)) return { code: 'snippet-outside-folder', why: `it is a symlink that leads outside the snippets folder ${named}`, hint: 'Replace the symlink with the file itself.' };
    // Hidden by its real place in the project too: a snippets folder that is a link to `.git` shows `config` as a plain name.
    if (isHiddenPath(relativePosix(realFolder, realFile)) || isHiddenPath(relativePosix(realRoot, realFile))) return { code: 'snippet-hidden-path', why: 'it is a symlink to a hidden file (a path with a part starting with `.`)', hint: 'Replace the symlink with the file itself.' };
    const ignored = gitIgnoredIn(root, folder, lookups);
    if (ignored([path, relativePosix(realRoot, realFile)])) {
      return { code: 'snippet-ignored', why: 'git ignores it (a .gitignore or .git/info/exclude rule), so it is not part of the project', hint: 'Commit the snippet (remove it from .gitignore), or include another one.' };
    }
    return readSnippetBytes(realFile);
  });
}

function readSnippetBytes(realFile: string): SnippetFile | SnippetRefusal | undefined {
  let fd;
  try {
    // The real path, checked above, without following a symlink put there since; O_NONBLOCK: a FIFO cannot hang the open.
    fd = openSync(realFile, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    const read = readTextFileBytes(fd, stats.size);
    if ('tooLarge' in read) return { code: 'snippet-too-large', why: `it is ${read.tooLarge.found}, and a snippet may be ${TEXT_FILE_LIMIT}`, hint: 'Snippets hold short texts; split it or shorten it.' };
    return { text: read.bytes.toString('utf8'), digest: hash('sha1', read.bytes, 'base64') };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The snippets as found now are those a post was read with: none changed, appeared, vanished or became refused. */
export function sameSnippets(uses: readonly SnippetUse[], place: SnippetPlace, lookups: FileLookups): boolean {
  return uses.every((use) => (digestOf(snippetFile(use.path, place, lookups)) ?? null) === use.digest);
}

/** The digest of a snippet as read, or undefined when it is missing or refused. */
export function digestOf(read: SnippetFile | SnippetRefusal | undefined): string | undefined {
  return read !== undefined && 'digest' in read ? read.digest : undefined;
}

/** The digest of a post file's bytes together with the snippets it includes: what its fingerprint names. */
export function digestWithSnippets(digest: string, uses: readonly SnippetUse[]): string {
  if (uses.length === 0) return digest;
  return hash('sha1', [digest, ...uses.map((use) => `${use.path}\0${use.digest ?? ''}`)].join('\n'), 'base64');
}
