import { randomBytes } from 'node:crypto';
import { link, mkdir, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { guardWrite } from '../write-guard/guard-write.js';

/**
 * The file system calls an atomic write makes. Node's by default; a test passes its own to make a
 * write, an fsync or a rename fail and check what is left on disk.
 */
export interface AtomicFileSystem {
  open: typeof open;
  link: typeof link;
  mkdir: typeof mkdir;
  rename: typeof rename;
  unlink: typeof unlink;
}

export interface AtomicWriteOptions {
  /** Default: node:fs/promises. */
  fs?: AtomicFileSystem;
  /** The folder the write must stay in (guardWrite); default: the file's own folder. */
  root?: string;
  /**
   * Asked once the new text is written and synced, just before it replaces the file: false keeps
   * the file as it is (nothing is replaced, the temp file is removed). A compare-and-swap for a
   * writer that read the file first; it narrows the window in which another writer's change is
   * lost to the rename itself.
   */
  stillCurrent?: () => Promise<boolean>;
}

const NODE_FS: AtomicFileSystem = { open, link, mkdir, rename, unlink };

async function openTemp(fs: AtomicFileSystem, temp: string, dir: string): Promise<FileHandle> {
  try {
    return await fs.open(temp, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await fs.mkdir(dir, { recursive: true });
    return fs.open(temp, 'wx', 0o644);
  }
}

/**
 * Writes and fsyncs `text` under a fresh temporary name beside `path`; returns that name. The
 * path is checked first (guardWrite): no link at it or on the way to it from `root`.
 */
async function writeTemp(fs: AtomicFileSystem, path: string, text: string, root: string | undefined): Promise<string> {
  const dir = dirname(path);
  await guardWrite(path, { root: root ?? dir });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await openTemp(fs, temp, dir);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  return temp;
}

/**
 * Replaces `path` with `text` so that a crash at any moment leaves either the old file or the new
 * one, never a mix: write a temp file in the same directory, fsync it, rename it over the target,
 * then fsync the directory so the rename itself is durable. Missing directories are created; a
 * symbolic link at `path` or on the way to it is refused (guardWrite). True once replaced; false
 * when `stillCurrent` said no.
 */
export async function writeFileAtomic(path: string, text: string, options: AtomicWriteOptions = {}): Promise<boolean> {
  const fs = options.fs ?? NODE_FS;
  const temp = await writeTemp(fs, path, text, options.root);
  try {
    if (options.stillCurrent !== undefined && !(await options.stillCurrent())) {
      await fs.unlink(temp);
      return false;
    }
    await fs.rename(temp, path);
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(path), fs);
  return true;
}

/**
 * Creates `path` holding `text`, or returns false when something is there already. The text is
 * written and synced under a temporary name, then hard-linked into place: atomic (never seen
 * half-written or empty) and refused with EEXIST when the name is taken.
 */
export async function createFileExclusive(path: string, text: string, options: AtomicWriteOptions = {}): Promise<boolean> {
  const fs = options.fs ?? NODE_FS;
  const temp = await writeTemp(fs, path, text, options.root);
  try {
    await fs.link(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await fs.unlink(temp).catch(() => undefined);
  }
  await syncDirectory(dirname(path), fs);
  return true;
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
