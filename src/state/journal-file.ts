import { mkdir, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { openNoFollow } from '../write-guard/anchored-folder.js';
import { guardWrite, type WriteRoot } from '../write-guard/guard-write.js';
import { syncDirectory } from './atomic.js';

/** Opens the journal for appending (`truncate`: emptied first), never through a link. */
export type OpenForAppend = (path: string, options: { truncate: boolean } & Partial<WriteRoot>) => Promise<FileHandle>;

/**
 * The append side of a state journal file. Each `append` writes its text at the end and fsyncs it
 * before resolving, so what it carried is on disk once it resolves. An append that fails midway is
 * cut back off before the next one: a torn line must never sit in front of later records, which a
 * reader would then drop (it stops at the first line that is not a whole record). Not safe for
 * concurrent appends: its one caller (StateStore) chains them. The file is never opened through a
 * symbolic link (a dangling one would create a file holding post texts wherever it points).
 */
export class JournalFile {
  readonly path: string;
  readonly #root: string;
  readonly #open: OpenForAppend;
  /** Bytes of whole appends on disk: where a failed append is cut back to. */
  #length = 0;
  /** The last append failed: the file may end in part of it. */
  #torn = false;

  /**
   * `root`: the folder the journal must stay in (guardWrite); default: its own folder. `open`:
   * default openNoFollow; a test passes its own to make an append fail once the file is open.
   */
  constructor(path: string, options: Partial<WriteRoot> & { open?: OpenForAppend } = {}) {
    this.path = path;
    this.#root = options.root ?? dirname(path);
    this.#open = options.open ?? openNoFollow;
  }

  /**
   * Appends `text` and fsyncs it. `fresh`: the text starts a new journal (its header first), so
   * whatever the file holds is dropped first, such as a journal already folded whose removal failed.
   */
  async append(text: string, options: { fresh: boolean }): Promise<void> {
    // Opened for each append, so no handle outlives a store that is simply dropped.
    await guardWrite(this.path, { root: this.#root });
    if (options.fresh) await mkdir(dirname(this.path), { recursive: true });
    const handle = await this.#open(this.path, { truncate: options.fresh, root: this.#root });
    try {
      if (options.fresh) {
        this.#length = 0;
        this.#torn = false;
      } else if (this.#torn) {
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
    // A new file's name must survive a crash as well as its content.
    if (options.fresh) await syncDirectory(dirname(this.path));
  }

  /** Deletes the file (the state file holds everything in it). */
  async remove(): Promise<void> {
    await unlink(this.path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await syncDirectory(dirname(this.path));
  }
}

/** Writes at the file's end (it is opened for appending or was just emptied) and fsyncs. */
async function write(handle: FileHandle, text: string): Promise<void> {
  await handle.writeFile(text, 'utf8');
  await handle.datasync();
}
