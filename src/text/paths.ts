import { isAbsolute, posix, relative, resolve, sep } from 'node:path';

/** True when `path` is `root` or below it (both absolute, in the same form: both real or both not). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** `to` relative to `from`, with forward slashes (the form used in messages, keys and state). */
export function relativePosix(from: string, to: string): string {
  const below = pathBelow(from, to);
  const rel = below ?? relative(from, to);
  return sep === posix.sep ? rel : rel.split(sep).join(posix.sep);
}

const NOT_NORMAL = sep === posix.sep ? /(^|\/)\.\.?(\/|$)|\/\/|^\/|\/$/ : /(^|[\\/])\.\.?([\\/]|$)|[\\/]{2}|^[\\/]|[\\/]$|\//;
/** An absolute POSIX path with a `.` or `..` segment, a doubled `/` or a trailing `/`. */
const NOT_NORMAL_ABSOLUTE = /\/\.\.?(\/|$)|\/\/|.\/$/;

/**
 * The rest of `to` when it is `from` + separator + a normal relative path: the common case
 * (a path made by joining onto a root) without `path.relative`, which resolves both sides and
 * costs more than everything else here for thousands of post files. Undefined when unsure.
 */
function pathBelow(from: string, to: string): string | undefined {
  if (to.length <= from.length + 1 || !to.startsWith(from) || to[from.length] !== sep) return undefined;
  if (!isNormalAbsolute(from)) return undefined;
  const rest = to.slice(from.length + 1);
  return NOT_NORMAL.test(rest) ? undefined : rest;
}

/** Whether `folder` is absolute and normal, as `resolve` returns it. */
function isNormalAbsolute(folder: string): boolean {
  return sep === posix.sep ? folder.startsWith('/') && !NOT_NORMAL_ABSOLUTE.test(folder) : isAbsolute(folder) && resolve(folder) === folder;
}

/** True when a part of the path (forward slashes) starts with `.`: `.git`, `.postsync`, `.env*` and every other hidden file or folder. */
export function isHiddenPath(path: string): boolean {
  return path.split('/').some((part) => part.startsWith('.'));
}
