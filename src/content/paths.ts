import { isAbsolute, posix, relative, sep } from 'node:path';

/** True when `path` is `root` or below it (both absolute, in the same form: both real or both not). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** `to` relative to `from`, with forward slashes (the form used in messages, keys and state). */
export function relativePosix(from: string, to: string): string {
  return relative(from, to).split(sep).join(posix.sep);
}
