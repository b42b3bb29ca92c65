import { isUtf8 } from 'node:buffer';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { readTextFileBytes, TEXT_FILE_LIMIT } from '../text/text-file-bytes.js';

/**
 * The bytes of a post file the editor opens, or why it is not one to edit. It is opened without
 * following a link (one may have taken the file's place since it was checked) and without
 * waiting on a pipe; it must be a regular file within the size of any post, and UTF-8, since an
 * edit rewrites the file from its text and must keep every byte it does not name.
 */
export async function readPostFile(path: string): Promise<Buffer | string> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return 'it is a symbolic link';
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'there is no such post file (it was moved or removed?)';
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return 'there is no such post file (it was moved or removed?)';
    const read = readTextFileBytes(handle.fd, stats.size);
    if ('tooLarge' in read) return `it is larger than a post file may be (${TEXT_FILE_LIMIT}, found ${read.tooLarge.found})`;
    if (!isUtf8(read.bytes)) return 'it is not valid UTF-8 text, which an edit would rewrite: save it as UTF-8 in an editor first';
    return read.bytes;
  } finally {
    await handle.close();
  }
}
