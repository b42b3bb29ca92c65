import { lstat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { InputError } from '../errors.js';

/** Where a write may land: the project root, or a folder the user named on the command line. */
export interface WriteRoot {
  root: string;
}

/**
 * Checks that a write to `path` lands inside `root`: every folder from `root` down to the file's
 * own that exists is a real folder, never a symbolic link, and `path` itself is not a link. A link
 * in a project can be committed by anyone, and following it would write where it points. What
 * does not exist yet passes: the caller makes it (mkdir makes real folders, never links). The
 * root itself is trusted as it is (the user chose it). Throws an InputError naming the path.
 */
export async function guardWrite(path: string, options: WriteRoot): Promise<void> {
  const root = resolve(options.root);
  const target = resolve(path);
  const inside = below(root, target);
  if (inside === null) {
    throw new InputError(`postsync refuses to write ${target}: it is outside ${root}`, {
      hint: 'postsync writes only inside the project (or the --out folder named on the command line).',
    });
  }
  let at = root;
  for (const part of inside.split(sep)) {
    at = join(at, part);
    const stats = await lstatOrNull(at);
    if (stats === null) return;
    if (stats.isSymbolicLink()) throw linkRefused(at);
  }
}

/**
 * Where a path the user named on the command line (`--out`, `--ics`) is checked from: the working
 * folder when the path lies in it (a checkout: a link committed at that name or above it is refused,
 * as in the project), else the path's own folder (a place the user chose outside the checkout).
 */
export function namedPathRoot(path: string, cwd: string = process.cwd()): WriteRoot {
  const absolute = resolve(cwd, path);
  return { root: below(cwd, absolute) === null ? dirname(absolute) : cwd };
}

/** `target` relative to `root` when it lies strictly below it, else null (the root itself, or outside). */
function below(root: string, target: string): string | null {
  const inside = relative(root, target);
  return inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside) ? null : inside;
}

async function lstatOrNull(path: string) {
  return lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
    throw error;
  });
}

/** The refusal of a write through the symbolic link at `path`. */
export function linkRefused(path: string): InputError {
  return new InputError(`postsync refuses to write through ${path}: it is a symbolic link, which could send the write outside the project`, {
    hint: `Remove the link (rm '${path.replaceAll("'", "'\\''")}'); postsync makes a real file or folder in its place.`,
  });
}
