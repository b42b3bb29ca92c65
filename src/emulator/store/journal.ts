import { constants } from 'node:fs';
import { mkdir, open, rename, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { StateError } from '../../errors.js';
import type { JournalRecord } from './store.js';

/** The changes of one transaction written as one line, so a torn write loses all of them or none. */
interface BatchLine {
  t: 'batch';
  records: JournalRecord[];
}

/** What was read since the last look: the whole journal again (`reload`), or the lines added. */
export interface JournalReading {
  reload: boolean;
  records: JournalRecord[];
}

const NEWLINE = 0x0a;

/**
 * The --data journal, `<dir>/journal.jsonl`: one JSON line per change (or per transaction),
 * append-only, shared by every process that serves the folder. Each process remembers the file it
 * read (its inode, kept open so the number cannot be given to another file) and how far: a look
 * (`readNew`) costs one `stat` when nothing changed, reads only the lines added otherwise, and
 * reads the whole file again when another process compacted it (a new inode). Bytes after the last
 * newline are a write in progress, or torn by a killed process: never read; the next writer, who
 * holds the lock so no write can be in progress, cuts them off. Writing and compacting are for
 * the holder of the store lock only.
 */
export class Journal {
  private handle: FileHandle | null = null;
  private ino = -1;
  /** Bytes read and applied: always just after a newline. */
  private offset = 0;
  /** The file's size at the last look (past `offset` by a partial last line, if any). */
  private seenSize = 0;
  /** Lines in the file, to tell when compacting is worth it. */
  private lineCount = 0;

  private constructor(readonly file: string) {}

  static async open(dir: string): Promise<Journal> {
    await mkdir(dir, { recursive: true });
    return new Journal(join(dir, 'journal.jsonl'));
  }

  get lines(): number {
    return this.lineCount;
  }

  async exists(): Promise<boolean> {
    return stat(this.file).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw error;
      },
    );
  }

  /** What changed since the last look; null when nothing did (the cheap, usual answer). */
  async readNew(): Promise<JournalReading | null> {
    const now = await stat(this.file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (now === null) return null;
    if (now.ino === this.ino && now.size === this.seenSize) return null;
    if (now.ino !== this.ino) {
      const handle = await open(this.file, constants.O_RDWR);
      try {
        const size = (await handle.stat()).size;
        const { records, consumed, lines } = parse(await readRange(handle, 0, size), this.file, 0);
        await this.adopt(handle, { size, consumed, lines });
        return { reload: true, records };
      } catch (error) {
        if (handle !== this.handle) await handle.close();
        throw error;
      }
    }
    const handle = this.handle as FileHandle;
    const size = (await handle.stat()).size;
    const { records, consumed, lines } = parse(await readRange(handle, this.offset, size), this.file, this.lineCount);
    this.offset += consumed;
    this.seenSize = size;
    this.lineCount += lines;
    return records.length === 0 ? null : { reload: false, records };
  }

  /**
   * Appends one transaction's changes (on disk once `sync` resolves). The caller holds the lock and
   * has read every line.
   */
  async append(records: readonly JournalRecord[]): Promise<void> {
    if (records.length === 0) return;
    const handle = this.handle;
    if (!handle) throw new Error('the journal is appended to before it was read');
    const line = records.length === 1 ? records[0] : ({ t: 'batch', records: [...records] } satisfies BatchLine);
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`);
    // A partial last line left by a killed writer would otherwise glue onto this one.
    if (this.seenSize > this.offset) await handle.truncate(this.offset);
    await handle.write(bytes, 0, bytes.length, this.offset);
    this.offset += bytes.length;
    this.seenSize = this.offset;
    this.lineCount += 1;
  }

  /** Waits until every line appended so far is on disk (fdatasync). */
  async sync(): Promise<void> {
    await this.handle?.datasync();
  }

  /**
   * Writes `records` as the whole journal, atomically (temp file, fsync, rename, fsync of the
   * folder). The caller holds the lock; the other processes see a new inode and read it all again.
   */
  async compact(records: Iterable<JournalRecord>): Promise<void> {
    const temp = `${this.file}.compact.tmp`;
    const out = await open(temp, 'w');
    let size = 0;
    let lines = 0;
    try {
      let chunk: string[] = [];
      const flush = async () => {
        const text = chunk.length === 0 ? '' : `${chunk.join('\n')}\n`;
        chunk = [];
        size += Buffer.byteLength(text);
        await out.write(text);
      };
      for (const record of records) {
        chunk.push(JSON.stringify(record));
        lines++;
        if (chunk.length >= 1000) await flush();
      }
      await flush();
      await out.sync();
    } finally {
      await out.close();
    }
    await rename(temp, this.file);
    const folder = await open(join(this.file, '..'), 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
    await this.adopt(await open(this.file, constants.O_RDWR), { size, consumed: size, lines });
  }

  /** Makes `handle` the journal this process has read, `consumed` bytes of it. */
  private async adopt(handle: FileHandle, read: { size: number; consumed: number; lines: number }): Promise<void> {
    await this.handle?.close();
    this.handle = handle;
    this.ino = (await handle.stat()).ino;
    this.offset = read.consumed;
    this.seenSize = read.size;
    this.lineCount = read.lines;
  }

  /** Makes the next look read the whole journal again (memory may hold changes the journal lacks). */
  forget(): void {
    this.ino = -1;
  }

  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = null;
    this.ino = -1;
  }
}

async function readRange(handle: FileHandle, from: number, to: number): Promise<Buffer> {
  const buffer = Buffer.alloc(Math.max(0, to - from));
  let done = 0;
  while (done < buffer.length) {
    const { bytesRead } = await handle.read(buffer, done, buffer.length - done, from + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return buffer.subarray(0, done);
}

/**
 * The records of the complete lines of `bytes` and how many bytes they take; a line that does not
 * parse is a corrupt journal. Lines are decoded one at a time: a whole journal is never one string.
 */
function parse(bytes: Buffer, file: string, linesBefore: number): { records: JournalRecord[]; consumed: number; lines: number } {
  const records: JournalRecord[] = [];
  let lines = 0;
  let start = 0;
  for (let end = bytes.indexOf(NEWLINE); end !== -1; start = end + 1, end = bytes.indexOf(NEWLINE, start)) {
    const line = bytes.toString('utf8', start, end);
    if (line.trim() === '') continue;
    lines++;
    let value: JournalRecord | BatchLine;
    try {
      value = JSON.parse(line) as JournalRecord | BatchLine;
    } catch (error) {
      throw new StateError(`the emulator journal ${file} is corrupt at line ${linesBefore + lines}: ${(error as Error).message}`);
    }
    if (value.t === 'batch') records.push(...value.records);
    else records.push(value);
  }
  return { records, consumed: start, lines };
}
