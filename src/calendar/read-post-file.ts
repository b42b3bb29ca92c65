import { isUtf8 } from 'node:buffer';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { InputError } from '../errors.js';
import { readTextFileBytes, TEXT_FILE_LIMIT } from '../text/text-file-bytes.js';
import { AnchoredFolder } from '../write-guard/anchored-folder.js';
import type { WriteRoot } from '../write-guard/guard-write.js';

/**
 * The bytes of a post file the editor opens, or why it is not one to edit. Its folder is opened
 * from `root` down without following a link (AnchoredFolder: not even one made since the path was
 * checked), and the file in it as readPostAt does.
 */
export async function readPostFile(path: string, options: WriteRoot): Promise<Buffer | string> {
  let folder: AnchoredFolder;
  try {
    folder = await AnchoredFolder.open(dirname(path), { root: options.root, create: false });
  } catch (error) {
    if (error instanceof InputError) return 'a folder on the way to it is a symbolic link';
    if (isMissing(error)) return NO_SUCH_FILE;
    throw error;
  }
  try {
    const read = await readPostAt(folder.at(basename(path)));
    if (typeof read === 'string') return read;
    await folder.checkHolds(basename(path), read.identity);
    return read.bytes;
  } catch (error) {
    if (error instanceof InputError) return 'its folder was moved or replaced while it was read';
    throw error;
  } finally {
    await folder.close();
  }
}

const NO_SUCH_FILE = 'there is no such post file (it was moved or removed?)';

const isMissing = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

/**
 * The bytes of the post file at `path` and its identity, or why it is not one to edit. It is
 * opened without following a link at its last name (one may have taken the file's place since it
 * was checked) and without waiting on a pipe; it must be a regular file within the size of any
 * post, and UTF-8, since an edit rewrites the file from its text and must keep every byte it does
 * not name.
 */
export async function readPostAt(path: string): Promise<{ bytes: Buffer; identity: { dev: number; ino: number } } | string> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return 'it is a symbolic link';
    if (isMissing(error)) return NO_SUCH_FILE;
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return NO_SUCH_FILE;
    const read = readTextFileBytes(handle.fd, stats.size);
    if ('tooLarge' in read) return `it is larger than a post file may be (${TEXT_FILE_LIMIT}, found ${read.tooLarge.found})`;
    if (!isUtf8(read.bytes)) return 'it is not valid UTF-8 text, which an edit would rewrite: save it as UTF-8 in an editor first';
    return { bytes: read.bytes, identity: { dev: stats.dev, ino: stats.ino } };
  } finally {
    await handle.close();
  }
}
