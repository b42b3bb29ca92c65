import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { PostsyncError } from '../errors.js';

/**
 * Bytes handed to the socket so far, summed over the pieces of one upload (the whole file, or
 * its parts). A piece sent again by a retry starts over from zero, so the total can go down.
 */
export class UploadProgress {
  private readonly sentByPiece = new Map<number, number>();
  private total = 0;

  constructor(private readonly report: ((sentBytes: number) => void) | undefined) {}

  /** Counts bytes that need no sending (parts already in storage). */
  addDone(bytes: number): void {
    if (bytes === 0) return;
    this.total += bytes;
    this.report?.(this.total);
  }

  /** Streams `length` bytes from `offset` of the file, counting them under `piece`. */
  async *stream(path: string, piece: number, range?: { offset: number; length: number }): AsyncGenerator<Uint8Array> {
    this.total -= this.sentByPiece.get(piece) ?? 0;
    this.sentByPiece.set(piece, 0);
    const source = range === undefined
      ? createReadStream(path)
      : createReadStream(path, { start: range.offset, end: range.offset + range.length - 1 });
    for await (const chunk of source as AsyncIterable<Buffer>) {
      this.sentByPiece.set(piece, (this.sentByPiece.get(piece) ?? 0) + chunk.length);
      this.total += chunk.length;
      this.report?.(this.total);
      yield chunk;
    }
  }
}

/** The file must still have the size it was described with; otherwise Content-Length would lie. */
export async function assertFileSize(path: string, sizeBytes: number): Promise<void> {
  const actual = (await stat(path)).size;
  if (actual !== sizeBytes) {
    throw new PostsyncError(`The file ${path} is ${actual} bytes, but the upload was started for ${sizeBytes} bytes.`, {
      hint: 'The file changed during the run; run again.',
    });
  }
}

/** Runs `work` for every item with at most `concurrency` at once; waits for all started work before failing. */
export async function forEachBounded<T>(items: readonly T[], concurrency: number, signal: AbortSignal | undefined, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      signal?.throwIfAborted();
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  const rejected = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (rejected) throw rejected.reason;
}
