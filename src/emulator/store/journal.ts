import { createReadStream } from 'node:fs';
import { mkdir, open, rename, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { StateError } from '../../errors.js';
import type { JournalRecord } from './store.js';

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The --data journal: one JSON record per line, append-only. `sync()` resolves once every record
 * appended so far is on disk (fdatasync). Requests that call `sync()` while a write is running
 * share the next write (group commit), so the cost of an fsync is paid once per batch, not once
 * per request.
 */
export class Journal {
  private pending: string[] = [];
  private waiters: Waiter[] = [];
  private writing: Promise<void> | null = null;

  private constructor(
    readonly file: string,
    private handle: FileHandle,
  ) {}

  /**
   * Replays `<dir>/journal.jsonl` into `apply` (a torn last line, left by a crash mid-write, is
   * ignored), then returns the journal ready for appends. `existed` says whether there was one.
   */
  static async replay(dir: string, apply: (record: JournalRecord) => void): Promise<{ existed: boolean; records: number }> {
    await mkdir(dir, { recursive: true });
    const file = join(dir, 'journal.jsonl');
    const exists = await stat(file).then(() => true, () => false);
    if (!exists) return { existed: false, records: 0 };
    const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    let lineNumber = 0;
    let records = 0;
    let broken: { line: number; reason: string } | undefined;
    for await (const line of lines) {
      lineNumber++;
      if (line.trim() === '') continue;
      if (broken) throw new StateError(`the emulator journal ${file} is corrupt at line ${broken.line}: ${broken.reason}`);
      try {
        apply(JSON.parse(line) as JournalRecord);
        records++;
      } catch (error) {
        // Only tolerable on the last line: a write torn by a crash. Decided once the next line arrives.
        broken = { line: lineNumber, reason: (error as Error).message };
      }
    }
    return { existed: true, records };
  }

  /** Writes `records` as the whole journal, atomically (temp file, fsync, rename), and opens it for appends. */
  static async rewrite(dir: string, records: Iterable<JournalRecord>): Promise<Journal> {
    const file = join(dir, 'journal.jsonl');
    const temp = `${file}.compact.tmp`;
    const out = await open(temp, 'w');
    try {
      let chunk: string[] = [];
      for (const record of records) {
        chunk.push(JSON.stringify(record));
        if (chunk.length >= 1000) {
          await out.write(chunk.join('\n') + '\n');
          chunk = [];
        }
      }
      if (chunk.length > 0) await out.write(chunk.join('\n') + '\n');
      await out.sync();
    } finally {
      await out.close();
    }
    await rename(temp, file);
    const dirHandle = await open(dir, 'r');
    try {
      await dirHandle.sync();
    } finally {
      await dirHandle.close();
    }
    return new Journal(file, await open(file, 'a'));
  }

  append(record: JournalRecord): void {
    this.pending.push(`${JSON.stringify(record)}\n`);
  }

  sync(): Promise<void> {
    if (this.pending.length === 0) return this.writing ?? Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.writing ??= this.drain();
    });
  }

  async close(): Promise<void> {
    await this.sync();
    await this.handle.close();
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const lines = this.pending.join('');
      const waiters = this.waiters;
      this.pending = [];
      this.waiters = [];
      try {
        await this.handle.write(lines);
        await this.handle.datasync();
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        for (const waiter of waiters) waiter.reject(error);
      }
    }
    this.writing = null;
  }
}
