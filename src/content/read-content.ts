import { stat } from 'node:fs/promises';
import pLimit from 'p-limit';
import { hasErrors, type Diagnostic } from '../diagnostics.js';
import { discoverPostFiles } from './discover.js';
import { FileLookups } from './file-lookups.js';
import { ParsePool } from './parse-pool.js';
import { compareText, sortByKey, sortDiagnostics } from '../text/ordering.js';
import { relativePosix } from '../text/paths.js';
import { readContentFile, type ContentFileResult, type ReadContentOptions } from './read-file.js';
import { memoFiles } from './memo-files.js';
import type { DesiredPost, InvalidFile, PostToCheck } from './types.js';

export interface ContentResult {
  /** Valid posts only, sorted by key. A file with any error contributes no post. */
  posts: DesiredPost[];
  /** The posts of files that yield none (`invalid`), as far as they can be made, sorted by key: checked against their accounts, never planned. */
  checkOnly: PostToCheck[];
  /** Every problem in every file, sorted by file and position. */
  diagnostics: Diagnostic[];
  /** The files that yield no post because of their errors, in file order: each blocks only its own post. */
  invalid: InvalidFile[];
}

/** Enough parallel reads to overlap I/O, few enough to stay far from file-descriptor limits. */
const READ_CONCURRENCY = 16;
/** With a parse pool, enough files in flight to keep its workers busy (a file's descriptor is closed before it is parsed). */
const POOLED_READ_CONCURRENCY = 256;

/** Reads the whole content folder, collecting the diagnostics of every file. */
export async function readContent(options: ReadContentOptions): Promise<ContentResult> {
  const { config } = options;
  const dirStats = await stat(config.contentDir).catch(() => undefined);
  if (dirStats?.isDirectory() !== true) {
    const folder = relativePosix(config.root, config.contentDir);
    return {
      posts: [],
      checkOnly: [],
      invalid: [],
      diagnostics: [{ severity: 'error', code: 'content-dir-missing', message: `the content folder \`${folder}\` does not exist`, file: folder, expected: 'a folder holding the post files', hint: 'Create it, or set `content:` in postsync.yaml to the folder that holds your posts.' }],
    };
  }
  return combineContentResults(await readPostFiles(await discoverPostFiles(config), options));
}

/**
 * The results of these post files (project-relative), in their order: from the memo when it holds
 * a file's reading, else read in full. Thousands of files the memo holds cost no promise each.
 */
export async function readPostFiles(files: readonly string[], options: ReadContentOptions): Promise<ContentFileResult[]> {
  const shared = { ...options, lookups: options.lookups ?? new FileLookups() };
  const { memo } = shared;
  const results = memo === undefined ? new Array<ContentFileResult | undefined>(files.length) : await memoFiles(files, { ...shared, memo });
  const parsePool = ParsePool.forFiles(files.length - results.filter((result) => result !== undefined).length);
  try {
    const limit = pLimit(parsePool === undefined ? READ_CONCURRENCY : POOLED_READ_CONCURRENCY);
    const pooled = parsePool === undefined ? shared : { ...shared, parsePool };
    const reads: Promise<unknown>[] = [];
    for (let index = 0; index < files.length; index++) {
      if (results[index] === undefined) reads.push(limit(async () => (results[index] = await readContentFile(files[index]!, pooled))));
    }
    await Promise.all(reads);
  } finally {
    await parsePool?.close();
  }
  return results as ContentFileResult[];
}

/**
 * Joins per-file results: keys must be unique across files (an occurrence's key `<key>@<date>`
 * included), so every file sharing a key gets a `duplicate-key` error (and none of them yields a
 * post).
 */
export function combineContentResults(results: Iterable<ContentFileResult>): ContentResult {
  const all = [...results];
  // The files of each key; keys used by more than one file are the problem.
  const filesByKey = new Map<string, ContentFileResult[]>();
  for (const result of all) {
    for (const key of keysOf(result)) {
      const files = filesByKey.get(key);
      if (files === undefined) filesByKey.set(key, [result]);
      else if (!files.includes(result)) files.push(result);
    }
  }
  const diagnostics: Diagnostic[] = [];
  const posts: DesiredPost[] = [];
  const invalid: InvalidFile[] = [];
  const checkOnly: PostToCheck[] = [];
  for (const result of all) {
    if (result.checkOnly !== undefined) checkOnly.push(...result.checkOnly);
    if (result.diagnostics.length > 0) diagnostics.push(...result.diagnostics);
    const shared = keysOf(result).find((key) => filesByKey.get(key)!.length > 1);
    if (shared !== undefined) {
      const sharing = filesByKey.get(shared)!;
      const others = sharing.filter((other) => other !== result).map((other) => `\`${other.file}\``);
      diagnostics.push({
        severity: 'error',
        code: 'duplicate-key',
        message: `the post key \`${shared}\` is also used by ${others.join(', ')}`,
        file: result.file,
        ...result.keyPosition,
        expected: 'a key used by one file only',
        found: `\`${shared}\` in ${sharing.length} files`,
        hint: result.keyPosition === undefined ? 'Give one of the files a different `id:`.' : 'Change this `id:` (or remove it to use the file path as the key).',
      });
      invalid.push({ file: result.file, key: result.key!, readable: true });
      checkOnly.push(...result.posts);
    } else if (result.posts.length > 0 || !hasErrors(result.diagnostics)) {
      // A repeat whose occurrences are all past or skipped has no post and no error.
      posts.push(...result.posts);
    } else {
      invalid.push(invalidFileOf(result));
    }
  }
  invalid.sort((a, b) => compareText(a.file, b.file));
  return { posts: sortByKey(posts), checkOnly: sortByKey(checkOnly), diagnostics: sortDiagnostics(diagnostics), invalid };
}

/** A file without a post: keyed by its `id:` or path as read, else by the key its path gives. */
function invalidFileOf(result: ContentFileResult): InvalidFile {
  if (result.key !== null) return { file: result.file, key: result.key, readable: true };
  return { file: result.file, key: result.pathKey ?? result.file, readable: false };
}

/** The keys a file's result stands for: its key, and each of its posts' (the occurrences of a repeat). */
function keysOf(result: ContentFileResult): string[] {
  if (result.key === null) return [];
  if (result.posts.length === 0 || (result.posts.length === 1 && result.posts[0]!.key === result.key)) return [result.key];
  return [result.key, ...result.posts.map((post) => post.key)];
}
