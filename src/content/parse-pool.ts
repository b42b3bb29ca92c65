import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { InterpretContext, PostFileReading } from './interpret-file.js';
import type { SourcePosition, YamlSource } from '../text/yaml-source.js';

/** A reading made in a worker, located again in this thread. */
export interface PooledReading {
  reading: PostFileReading;
  locate: YamlSource['locate'];
}

/** What a worker is sent: post files to interpret, in order. */
export interface ParseBatch {
  id: number;
  files: { bytes: Uint8Array; context: InterpretContext }[];
}

/**
 * A worker's reading of one file: the reading, and where each entry of `media:` is (`locate(['media', i])`
 * as the worker answered it), the one position every post with media asks for.
 */
export interface PooledAnswer {
  reading: PostFileReading;
  mediaAt?: (SourcePosition | undefined)[];
}

/** A worker's answer to one batch: a result per file, in the batch's order, or the error that stopped it. */
export type ParseAnswer = { id: number; results: PooledAnswer[] } | { id: number; error: string };

/** Below this many files to read in full, starting the workers costs more than they save. */
export const POOLED_FILES_MIN = 500;

/** Files sent to a worker at once: enough to make a message cheap against its parsing. */
const BATCH_SIZE = 32;

/** At most this many workers: beyond it this thread's own share of each file is the limit. */
const MAX_WORKERS = 3;

export interface ParsePoolOptions {
  /** The worker's entry module (`parse-worker.js` of this build). */
  entry: URL;
  workers: number;
  /** Node options of the workers (e.g. a loader of TypeScript, to run the sources). */
  execArgv?: readonly string[];
}

interface Waiting {
  resolve: (answer: PooledAnswer) => void;
  reject: (error: Error) => void;
}

/**
 * A few worker threads that parse, validate and normalize post files (`interpretPostFile`), so
 * the YAML of thousands of files is read on several cores while this thread does the rest of each
 * file. A file's reading is the same as in this thread; each caller gets its own file's reading,
 * so the order of results never depends on the workers. The workers keep the process alive only
 * while files are out with them; `close` ends them.
 */
export class ParsePool {
  readonly #workers: { worker: Worker; out: number }[];
  readonly #batches = new Map<number, Waiting[]>();
  #queue: { bytes: Uint8Array; context: InterpretContext; waiting: Waiting }[] = [];
  /** This thread's parser, for the rare position a worker did not send (loaded once the pool has work). */
  #parser: Promise<typeof import('./parse.js')> | undefined;
  #nextId = 0;
  #out = 0;
  #flushQueued = false;
  #closed = false;

  private constructor(options: ParsePoolOptions) {
    this.#workers = Array.from({ length: options.workers }, () => {
      const worker = new Worker(options.entry, { execArgv: [...(options.execArgv ?? [])] });
      const slot = { worker, out: 0 };
      worker.on('message', (answer: ParseAnswer) => this.#answered(slot, answer));
      worker.on('error', (error) => this.#failAll(error));
      // A worker that stops on its own would leave its files unanswered: the read fails instead of waiting forever.
      worker.on('exit', (code) => {
        if (!this.#closed) this.#failAll(new Error(`a parse worker stopped (exit code ${code})`));
      });
      worker.unref();
      return slot;
    });
  }

  /**
   * A pool for `files` post files to read in full, or undefined when this thread should read them
   * itself: too few files, one core, or a build without the worker's entry file beside this module
   * (`parse-worker.js` of tsc and of the bundled CLI, `parse-worker.mjs` of the Action's bundle).
   */
  static forFiles(files: number): ParsePool | undefined {
    const cores = availableParallelism();
    if (files < POOLED_FILES_MIN || cores < 2) return undefined;
    const entry = [new URL('./parse-worker.js', import.meta.url), new URL('./parse-worker.mjs', import.meta.url)].find((url) => url.protocol === 'file:' && existsSync(fileURLToPath(url)));
    return entry === undefined ? undefined : ParsePool.start({ entry, workers: Math.min(cores - 1, MAX_WORKERS) });
  }

  static start(options: ParsePoolOptions): ParsePool {
    return new ParsePool(options);
  }

  /**
   * The reading of one post file's bytes, made by a worker. Its `locate` answers exactly as this
   * thread's parse would: the media entries from the worker's answer, any other path (a problem's
   * position, a repeat's entries) by parsing the bytes here when first asked.
   */
  async interpret(bytes: Uint8Array, context: InterpretContext): Promise<PooledReading> {
    this.#parser ??= import('./parse.js');
    const [answer, { parsePostFile }] = await Promise.all([this.#send(bytes, context), this.#parser]);
    return { reading: answer.reading, locate: pooledLocate(answer.mediaAt, () => parsePostFile(context.file, bytes).locate) };
  }

  #send(bytes: Uint8Array, context: InterpretContext): Promise<PooledAnswer> {
    return new Promise((resolve, reject) => {
      // A read still queued when its command stopped on another file's error.
      if (this.#closed) return reject(new Error('the parse pool was closed'));
      this.#queue.push({ bytes, context, waiting: { resolve, reject } });
      if (this.#queue.length >= BATCH_SIZE) this.#flush();
      else if (!this.#flushQueued) {
        this.#flushQueued = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#failAll(new Error('the parse pool was closed'));
    await Promise.all(this.#workers.map(({ worker }) => worker.terminate()));
  }

  #flush(): void {
    this.#flushQueued = false;
    while (this.#queue.length > 0) {
      const taken = this.#queue.splice(0, BATCH_SIZE);
      const slot = this.#workers.reduce((least, candidate) => (candidate.out < least.out ? candidate : least));
      const id = this.#nextId++;
      this.#batches.set(id, taken.map((item) => item.waiting));
      slot.out += 1;
      if (this.#out++ === 0) for (const { worker } of this.#workers) worker.ref();
      // Each file's bytes are copied into a buffer of their own and moved, not cloned: a file read into a shared pool buffer would clone all of it.
      const files = taken.map(({ bytes, context }) => ({ bytes: new Uint8Array(bytes), context }));
      const batch: ParseBatch = { id, files };
      slot.worker.postMessage(batch, files.map((file) => file.bytes.buffer));
    }
  }

  #answered(slot: { out: number }, answer: ParseAnswer): void {
    const waiting = this.#batches.get(answer.id);
    if (waiting === undefined) return;
    this.#batches.delete(answer.id);
    slot.out -= 1;
    if (--this.#out === 0) for (const { worker } of this.#workers) worker.unref();
    if ('error' in answer) {
      for (const each of waiting) each.reject(new Error(`reading a post file failed in a parse worker: ${answer.error}`));
      return;
    }
    answer.results.forEach((result, index) => waiting[index]!.resolve(result));
  }

  #failAll(error: Error): void {
    for (const waiting of this.#batches.values()) for (const each of waiting) each.reject(error);
    for (const { waiting } of this.#queue) waiting.reject(error);
    this.#batches.clear();
    this.#queue = [];
    if (this.#out > 0) for (const { worker } of this.#workers) worker.unref();
    this.#out = 0;
  }
}

/** `locate` over the media positions a worker sent, parsing the file again (once) for any other path. */
function pooledLocate(mediaAt: PooledAnswer['mediaAt'], parse: () => YamlSource['locate']): YamlSource['locate'] {
  let parsed: YamlSource['locate'] | undefined;
  return (path, options = {}) => {
    const [first, index] = path;
    if (mediaAt !== undefined && path.length === 2 && first === 'media' && options.key !== true && typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < mediaAt.length) {
      const at = mediaAt[index];
      return at === undefined ? undefined : { line: at.line, column: at.column };
    }
    parsed ??= parse();
    return parsed(path, options);
  };
}
