import { closeSync, fstatSync, type Stats } from 'node:fs';
import type { Diagnostic } from '../diagnostics.js';
import type { FileLookups } from './file-lookups.js';
import { isHiddenPath, isInside, relativePosix } from '../text/paths.js';
import { readTextFileBytes, TEXT_FILE_LIMIT } from '../text/text-file-bytes.js';

export type FileProblem = Omit<Diagnostic, 'severity' | 'file'>;

/**
 * The bytes of a post file (open, fstat, read, close) and its stats, once its real path is known
 * to lie inside the project (a symlink may not lead outside). The calls are synchronous on
 * purpose: post files are small (bounded by readTextFileBytes) and a project has thousands,
 * and a synchronous read of a cached file costs a fraction of the CPU time of a promise-based one
 * (bench/README.md), while blocking the event loop only for microseconds.
 */
export function readPostBytes(absolute: string, root: string, lookups: FileLookups): { bytes: Buffer; stats: Stats } | { problem: FileProblem } {
  const unreadable = (error: unknown): { problem: FileProblem } => {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { problem: { code: 'file-unreadable', message: `the file cannot be read (${reason})`, hint: 'Check that it exists and is readable.' } };
  };
  let opened;
  try {
    const realRoot = lookups.realpath(root);
    // Inside the project, and not in a hidden part of it (`.git/config`, `.env`): a symlink committed as a post file may not read those.
    opened = lookups.openChecked(absolute, (realPath) => isInside(realRoot, realPath) && !isHiddenPath(relativePosix(realRoot, realPath)));
  } catch (error) {
    return unreadable(error);
  }
  if (opened === null) {
    return { problem: { code: 'file-outside-project', message: 'the file is a symlink that leads outside the project, or to a hidden file in it (a path with a part starting with `.`)', hint: 'Replace the symlink with the file itself.' } };
  }
  const { fd } = opened;
  try {
    const stats = fstatSync(fd);
    const read = readTextFileBytes(fd, stats.size);
    if ('tooLarge' in read) {
      return { problem: { code: 'file-too-large', message: 'the file is too large for a post', expected: TEXT_FILE_LIMIT, found: read.tooLarge.found, hint: 'Post files hold text only; attach large files with `media:`.' } };
    }
    return { bytes: read.bytes, stats };
  } catch (error) {
    return unreadable(error);
  } finally {
    closeSync(fd);
  }
}
