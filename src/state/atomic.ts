import { randomBytes } from 'node:crypto';
import { link, mkdir, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Folders this process has already made sure exist. An apply writes the state after every change,
 * so skipping a `mkdir` per write matters; a folder removed meanwhile is made again on ENOENT.
 */
const knownDirs = new Set<string>();

async function openTemp(temp: string, dir: string): Promise<FileHandle> {
  try {
    return await open(temp, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dir, { recursive: true });
    return open(temp, 'wx', 0o644);
  }
}

/** Writes and fsyncs `text` under a fresh temporary name beside `path`; returns that name. */
async function writeTemp(path: string, text: string): Promise<string> {
  const dir = dirname(path);
  if (!knownDirs.has(dir)) {
    await mkdir(dir, { recursive: true });
    knownDirs.add(dir);
  }
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await openTemp(temp, dir);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return temp;
}

/**
 * Replaces `path` with `text` so that a crash at any moment leaves either the old file or the new
 * one, never a mix: write a temp file in the same directory, fsync it, rename it over the target,
 * then fsync the directory so the rename itself is durable. Missing directories are created.
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temp = await writeTemp(path, text);
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(path));
}

/**
 * Creates `path` holding `text`, or returns false when something is there already. The text is
 * written and synced under a temporary name, then hard-linked into place: atomic (never seen
 * half-written or empty) and refused with EEXIST when the name is taken.
 */
export async function createFileExclusive(path: string, text: string): Promise<boolean> {
  const temp = await writeTemp(path, text);
  try {
    await link(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  await syncDirectory(dirname(path));
  return true;
}

/** Codes of platforms and file systems that cannot open or fsync a directory (e.g. Windows). */
const DIRECTORY_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EPERM', 'EACCES', 'EINVAL', 'EBADF', 'ENOTSUP']);

/** Fsyncs a directory, so a file created, renamed or removed in it stays so after a crash. */
export async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    if (!DIRECTORY_SYNC_UNSUPPORTED.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    await handle?.close();
  }
}
