import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { InputError } from '../errors.js';
import { guardWrite, linkRefused, type WriteRoot } from './guard-write.js';

/** A folder opened for reading its names: never through a symbolic link at its own name. */
const FOLDER_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** Where the kernel names an open descriptor as a path (Linux): `/proc/self/fd/N/name` is `name` in that very folder. */
const DESCRIPTOR_PATHS = '/proc/self/fd';

/** A file or folder as the file system knows it, whatever its name: its device and inode. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

const identityOf = (stats: Stats): FileIdentity => ({ dev: stats.dev, ino: stats.ino });
const sameFile = (a: FileIdentity, b: FileIdentity) => a.dev === b.dev && a.ino === b.ino;

/**
 * The folder a write goes into (or a read comes from), opened once from the root down, never
 * through a symbolic link, and then reached through what was opened rather than by its path.
 *
 * Where the kernel names open descriptors as paths (Linux: `/proc/self/fd/N`), each folder from
 * the root down is opened relative to the one above it with O_NOFOLLOW|O_DIRECTORY, and `at(name)`
 * names `name` in the folder so opened: a link put on the way at any moment, before, during or
 * after the check, is never followed, since no part of the path is looked up again (openat, which
 * Node lacks, through the descriptor's path). Elsewhere (macOS, Windows) the path is checked
 * (guardWrite, its real path inside the root's), the folder's device and inode are taken, and
 * `checkHolds` checks after the write that the folder is still the one checked and holds the file
 * written: a swap there is detected afterwards and reported, not prevented.
 */
export class AnchoredFolder {
  /** The folder's path as named: for messages, never for reaching it. */
  readonly path: string;
  readonly #handle: FileHandle | null;
  readonly #identity: FileIdentity;
  /** `/proc/self/fd/N` of the open folder, or null where names are reached by path. */
  readonly #via: string | null;

  private constructor(path: string, handle: FileHandle | null, identity: FileIdentity, via: string | null) {
    this.path = path;
    this.#handle = handle;
    this.#identity = identity;
    this.#via = via;
  }

  /**
   * Opens `dir`, inside `root` or the root itself. `create`: missing folders are made (real
   * folders, never links). A link on the way is refused with an InputError naming it; a missing
   * folder (without `create`) fails with ENOENT, a file on the way with an InputError.
   */
  static async open(dir: string, options: WriteRoot & { create: boolean; byPath?: boolean }): Promise<AnchoredFolder> {
    const root = resolve(options.root);
    const target = resolve(dir);
    const inside = relative(root, target);
    // Outside the root: refused (guardWrite names it); the root itself is trusted as the user chose it.
    if (inside !== '') await guardWrite(target, { root });
    const parts = inside === '' ? [] : inside.split(sep);
    // `byPath`: the way of platforms without descriptor paths, wherever it runs (its tests).
    const rootHandle = options.byPath === true ? null : await open(root, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0)).catch(() => null);
    if (rootHandle !== null && (await descriptorPathsWork(rootHandle))) {
      const { path, handle } = await openByDescriptor(rootHandle, { root, parts, create: options.create });
      return new AnchoredFolder(path, handle, identityOf(await handle.stat()), `${DESCRIPTOR_PATHS}/${handle.fd}`);
    }
    await rootHandle?.close();
    const { handle, identity } = await openByPath(target, { root, create: options.create });
    return new AnchoredFolder(target, handle, identity, null);
  }

  /** A path that reaches `name` in this folder. */
  at(name: string): string {
    return join(this.#via ?? this.path, name);
  }

  /** A path that reaches the folder itself (to fsync it). */
  get self(): string {
    return this.#via ?? this.path;
  }

  /** Whether `name` in this folder is reached through the open descriptor, so no link can redirect it. */
  get anchored(): boolean {
    return this.#via !== null;
  }

  /**
   * Checks, once `name` was written in this folder, that the folder is still at its path and, where
   * names are reached by path, that it holds the file written (`written`: its identity as written;
   * a link put in the folder's place and taken away again between the check and the write leaves
   * the folder in place but the file elsewhere). Throws an InputError when not: the folder was
   * moved, or swapped for a link, while postsync wrote in it.
   */
  async checkHolds(name: string, written: FileIdentity): Promise<void> {
    const now = await lstat(this.path).catch(() => null);
    const inPlace = now !== null && !now.isSymbolicLink() && sameFile(identityOf(now), this.#identity);
    const found = this.anchored ? null : await lstat(this.at(name)).catch(() => null);
    const holds = this.anchored || (found !== null && sameFile(identityOf(found), written));
    if (inPlace && holds) return;
    const where = this.anchored ? `it was written in the folder postsync opened, which is no longer at ${this.path}` : 'it may have gone elsewhere';
    throw new InputError(`the folder ${this.path} was moved or replaced while postsync wrote ${name} in it: ${where}`, {
      hint: 'Something else changes this folder (a link put in its place?): check where the file went, then run it again.',
    });
  }

  async close(): Promise<void> {
    await this.#handle?.close();
  }
}

/** Whether `/proc/self/fd/N` reaches the folder `handle` holds (Linux with /proc mounted). */
async function descriptorPathsWork(handle: FileHandle): Promise<boolean> {
  const [viaPath, opened] = await Promise.all([stat(`${DESCRIPTOR_PATHS}/${handle.fd}`).catch(() => null), handle.stat()]);
  return viaPath !== null && sameFile(identityOf(viaPath), identityOf(opened));
}

/** Each folder opened relative to the one above (openat through `/proc/self/fd/N`), without following a link. */
async function openByDescriptor(rootHandle: FileHandle, place: { root: string; parts: string[]; create: boolean }): Promise<{ path: string; handle: FileHandle }> {
  let handle = rootHandle;
  let path = place.root;
  try {
    for (const part of place.parts) {
      const via = `${DESCRIPTOR_PATHS}/${handle.fd}/${part}`;
      path = join(path, part);
      const next = await openFolderAt(via, path, place.create);
      await handle.close();
      handle = next;
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  return { path, handle };
}

/** Opens the folder `via` names (`path` for messages), made first when missing and `create`; never through a link. */
async function openFolderAt(via: string, path: string, create: boolean): Promise<FileHandle> {
  // A folder made here may be removed again before it is opened (another process): made again, a few times.
  for (let attempt = 0; ; attempt++) {
    try {
      return await open(via, FOLDER_FLAGS);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code === 'ENOTDIR' || code === 'ELOOP') && (await lstat(via).catch(() => null))?.isSymbolicLink()) throw linkRefused(path);
      if (code === 'ENOTDIR') throw new InputError(`postsync cannot write in ${path}: it is not a folder`, { hint: `Move the file ${path} away; postsync makes a folder in its place.` });
      if (code !== 'ENOENT') throw error;
      if (!create) throw Object.assign(new Error(`ENOENT: no such folder, ${path}`), { code });
      if (attempt === MAKE_ATTEMPTS) throw new InputError(`postsync cannot make the folder ${path}: it was removed each time it was made`, { hint: 'Something else removes it: stop that, then run it again.' });
    }
    // mkdir never follows a link at its last name: EEXIST when one was put there meanwhile, refused on the next open.
    await mkdir(via).catch((made: NodeJS.ErrnoException) => {
      if (made.code !== 'EEXIST') throw made;
    });
  }
}

/** How many times a missing folder is made again when it is gone before it could be opened. */
const MAKE_ATTEMPTS = 3;

/** Where descriptors have no paths: the path checked, then its folder's identity kept for `checkHolds`. */
async function openByPath(target: string, place: { root: string; create: boolean }): Promise<{ handle: FileHandle | null; identity: FileIdentity }> {
  // Checked before a folder is made (mkdir follows a link on the way) and again once it is there.
  if (target !== place.root) await guardWrite(target, { root: place.root });
  if (place.create) await mkdir(target, { recursive: true });
  if (target !== place.root) await guardWrite(target, { root: place.root });
  const handle = await open(target, FOLDER_FLAGS).catch(() => null);
  try {
    const stats = handle === null ? await lstat(target) : await handle.stat();
    const real = await realpath(target);
    const realRoot = await realpath(place.root);
    if (!sameFile(identityOf(stats), identityOf(await lstat(target))) || (real !== realRoot && !real.startsWith(`${realRoot}${sep}`))) throw linkRefused(target);
    return { handle, identity: identityOf(stats) };
  } catch (error) {
    await handle?.close();
    throw error;
  }
}

/**
 * Opens `path` for writing at its end (`truncate`: emptied first), created when missing, never
 * through a symbolic link: not at `path` (O_NOFOLLOW), nor on the way to it from `root` (default:
 * its own folder, trusted as it is), even one made since a check (AnchoredFolder).
 */
export async function openNoFollow(path: string, options: { truncate: boolean } & Partial<WriteRoot>): Promise<FileHandle> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | (options.truncate ? constants.O_TRUNC : 0) | (constants.O_NOFOLLOW ?? 0);
  const folder = await AnchoredFolder.open(dirname(path), { root: options.root ?? dirname(path), create: false });
  const at = folder.at(basename(path));
  let handle: FileHandle;
  try {
    handle = await open(at, flags, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw linkRefused(path);
    throw error;
  } finally {
    await folder.close();
  }
  // Where O_NOFOLLOW is unknown (Windows), the path is checked once opened instead.
  if (constants.O_NOFOLLOW === undefined && (await lstat(at)).isSymbolicLink()) {
    await handle.close();
    throw linkRefused(path);
  }
  return handle;
}
