import { mkdir, open, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncDirectory } from './atomic.js';

/**
 * The append side of a state journal file. Each `append` writes its text at the end and fsyncs it
 * before resolving, so what it carried is on disk once it resolves. An append that fails midway is
 * cut back off before the next one: a torn line must never sit in front of later records, which a
 * reader would then drop (it stops at the first line that is not a whole record). Not safe for
 * concurrent appends: its one caller (StateStore) chains them.
 */
export class JournalFile {
  readonly path: string;
  /** Bytes of whole appends on disk: where a failed append is cut back to. */
  #length = 0;
  /** The last append failed: the file may end in part of it. */
  #torn = false;
  /** The file's name is on disk (its directory was fsynced since the file was made). */
  #named = false;

  constructor(path: string) {
    this.path = path;
  }

  async append(text: string): Promise<void> {
    // Opened for each append, so no handle outlives a store that is simply dropped.
    if (!this.#named) await mkdir(dirname(this.path), { recursive: true });
    const handle = await open(this.path, 'a', 0o644);
    try {
      if (!this.#named) {
        this.#length = (await handle.stat()).size;
        await syncDirectory(dirname(this.path));
        this.#named = true;
      }
      if (this.#torn) {
        await handle.truncate(this.#length);
        this.#torn = false;
      }
      await write(handle, text).catch((error: unknown) => {
        this.#torn = true;
        throw error;
      });
      this.#length += Buffer.byteLength(text, 'utf8');
    } finally {
      await handle.close();
    }
  }

  /** Deletes the file (the state file holds everything in it); the next append starts a new one. */
  async remove(): Promise<void> {
    this.#length = 0;
    this.#torn = false;
    this.#named = false;
    await unlink(this.path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await syncDirectory(dirname(this.path));
  }
}

/** Appends (the file is opened for appending: every write goes to its end) and fsyncs. */
async function write(handle: FileHandle, text: string): Promise<void> {
  await handle.writeFile(text, 'utf8');
  await handle.datasync();
}
