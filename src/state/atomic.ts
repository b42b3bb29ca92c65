import { randomBytes } from 'node:crypto';
import { link, lstat, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { InputError } from '../errors.js';
import { AnchoredFolder, type FileIdentity } from '../write-guard/anchored-folder.js';
import { linkRefused } from '../write-guard/guard-write.js';

/**
 * The file system calls an atomic write makes by name. Node's by default; a test passes its own to
 * make a write, an fsync or a rename fail (or race) and check what is left on disk.
 */
export interface AtomicFileSystem {
  open: typeof open;
  link: typeof link;
  rename: typeof rename;
  unlink: typeof unlink;
}

export interface AtomicWriteOptions {
  /** Default: node:fs/promises. */
  fs?: AtomicFileSystem;
  /** The folder the write must stay in (AnchoredFolder); default: the file's own folder. */
  root?: string;
  /**
   * Asked once the new text is written and synced, just before it replaces the file, with a path
   * that reaches the file in the folder written to: false keeps the file as it is (nothing is
   * replaced, the temp file is removed). A compare-and-swap for a writer that read the file
   * first; it narrows the window in which another writer's change is lost to the rename itself.
   */
  stillCurrent?: (current: string) => Promise<boolean>;
}

const NODE_FS: AtomicFileSystem = { open, link, rename, unlink };

/** A file written and synced under a temporary name in `folder`: its name there and its identity. */
interface TempFile {
  name: string;
  identity: FileIdentity;
}

/** Writes and fsyncs `text` under a fresh temporary name beside `name`, created exclusively (never through a link). */
async function writeTemp(fs: AtomicFileSystem, folder: AnchoredFolder, name: string, text: string | Uint8Array): Promise<TempFile> {
  const temp = `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  let handle: FileHandle | undefined;
  try {
    handle = await fs.open(folder.at(temp), 'wx', 0o644);
    await handle.writeFile(text, 'utf8');
    await handle.sync();
    const stats = await handle.stat();
    return { name: temp, identity: { dev: stats.dev, ino: stats.ino } };
  } catch (error) {
    if (handle !== undefined) await fs.unlink(folder.at(temp)).catch(() => undefined);
    // The folder opened was removed since (replaced by another): nothing can be made in it.
    if (handle === undefined && (error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new InputError(`the folder ${folder.path} was removed while postsync wrote ${name} in it`, { hint: 'Something else changes this folder: run it again.' });
    }
    throw error;
  } finally {
    await handle?.close();
  }
}

/**
 * Opens the folder of `path` (made when missing) from `root` down, never through a link, runs
 * `write` in it, then checks the folder is still in place holding what was written, and fsyncs
 * it so what was created, renamed or removed in it stays so after a crash.
 */
async function inFolder<T>(path: string, options: AtomicWriteOptions, write: (folder: AnchoredFolder, fs: AtomicFileSystem) => Promise<{ result: T; written: FileIdentity | null }>): Promise<T> {
  const fs = options.fs ?? NODE_FS;
  const folder = await AnchoredFolder.open(dirname(path), { root: options.root ?? dirname(path), create: true });
  try {
    const { result, written } = await write(folder, fs);
    if (written !== null) {
      await folder.checkHolds(basename(path), written);
      await syncDirectory(folder.self, fs);
    }
    return result;
  } finally {
    await folder.close();
  }
}

/**
 * Replaces `path` with `text` so that a crash at any moment leaves either the old file or the new
 * one, never a mix: write a temp file in the same directory, fsync it, rename it over the target,
 * then fsync the directory so the rename itself is durable. Missing directories are created; no
 * symbolic link at `path` or on the way to it from `root` is followed, even one made meanwhile
 * (AnchoredFolder). True once replaced; false when `stillCurrent` said no.
 */
export async function writeFileAtomic(path: string, text: string, options: AtomicWriteOptions = {}): Promise<boolean> {
  const name = basename(path);
  return inFolder(path, options, async (folder, fs) => {
    const temp = await writeTemp(fs, folder, name, text);
    try {
      if (options.stillCurrent !== undefined && !(await options.stillCurrent(folder.at(name)))) {
        await fs.unlink(folder.at(temp.name));
        return { result: false, written: null };
      }
      // A link at `name` is refused as every write refuses one (rename would replace the link, never
      // follow it, but the person who made it is told rather than finding it gone).
      if ((await lstat(folder.at(name)).catch(() => null))?.isSymbolicLink()) throw linkRefused(path);
      await fs.rename(folder.at(temp.name), folder.at(name));
    } catch (error) {
      await fs.unlink(folder.at(temp.name)).catch(() => undefined);
      throw error;
    }
    return { result: true, written: temp.identity };
  });
}

/**
 * Creates `path` holding `text`, or returns false when something is there already. The text is
 * written and synced under a temporary name, then hard-linked into place: atomic (never seen
 * half-written or empty) and refused with EEXIST when the name is taken. Folders as for writeFileAtomic.
 */
export async function createFileExclusive(path: string, text: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<boolean> {
  const name = basename(path);
  return inFolder(path, options, async (folder, fs) => {
    const temp = await writeTemp(fs, folder, name, text);
    try {
      await fs.link(folder.at(temp.name), folder.at(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { result: false, written: null };
      throw error;
    } finally {
      await fs.unlink(folder.at(temp.name)).catch(() => undefined);
    }
    return { result: true, written: temp.identity };
  });
}

/** Codes of platforms and file systems that cannot open or fsync a directory (e.g. Windows). */
const DIRECTORY_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EPERM', 'EACCES', 'EINVAL', 'EBADF', 'ENOTSUP']);

/** Fsyncs a directory, so a file created, renamed or removed in it stays so after a crash. */
export async function syncDirectory(dir: string, fs: AtomicFileSystem = NODE_FS): Promise<void> {
  let handle;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch (error) {
    if (!DIRECTORY_SYNC_UNSUPPORTED.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    await handle?.close();
  }
}
