import { fstatSync, readSync } from 'node:fs';

/**
 * The one size rule for the text files postsync reads (postsync.yaml, post files, snippet files):
 * they hold settings and texts, so anything bigger is a mistake (a video renamed `.md`, a
 * generated dump) or an attempt to stall a run, and is refused before it is parsed.
 */
export const MAX_TEXT_FILE_BYTES = 1024 * 1024;

const MIB = 1024 * 1024;

/** What a refusal says the file may be, worked out from MAX_TEXT_FILE_BYTES. */
export const TEXT_FILE_LIMIT = `at most ${MAX_TEXT_FILE_BYTES / MIB} MiB`;

export type TextFileBytes = { bytes: Buffer } | { tooLarge: { found: string } };

/**
 * The bytes of an open file (the caller opens and closes `fd`; `size` is its fstat size), never more than the limit: a
 * file whose size is over it is not read at all, and reading stops one byte past the limit for
 * what has no size or grows while read (a device such as /dev/zero, a file being appended to).
 */
export function readTextFileBytes(fd: number, size = fstatSync(fd).size): TextFileBytes {
  if (size > MAX_TEXT_FILE_BYTES) return { tooLarge: { found: `${(size / MIB).toFixed(1)} MiB` } };
  // One byte more than the size tells a file that grew; what has no size starts small.
  let bytes = Buffer.allocUnsafe(size > 0 ? size + 1 : UNSIZED_START);
  let filled = 0;
  for (;;) {
    const read = readSync(fd, bytes, filled, bytes.length - filled, null);
    if (read === 0) return { bytes: bytes.subarray(0, filled) };
    filled += read;
    if (filled > MAX_TEXT_FILE_BYTES) return { tooLarge: { found: `more than ${MAX_TEXT_FILE_BYTES / MIB} MiB` } };
    if (filled === bytes.length) bytes = Buffer.concat([bytes, Buffer.allocUnsafe(Math.min(bytes.length, MAX_TEXT_FILE_BYTES + 1 - bytes.length))]);
  }
}

const UNSIZED_START = 64 * 1024;
