// The entry of a parse pool's worker thread (parse-pool.ts): interprets batches of post files and
// answers each with its reading and the positions of its media entries, in the order given.
import { parentPort } from 'node:worker_threads';
import { interpretPostFile } from './interpret-file.js';
import type { ParseBatch, ParseAnswer, PooledAnswer } from './parse-pool.js';

parentPort?.on('message', (batch: ParseBatch) => {
  let answer: ParseAnswer;
  try {
    const results = batch.files.map(({ bytes, context }): PooledAnswer => {
      const { reading, locate } = interpretPostFile(bytes, context);
      // Every post with media asks where its entries are; any other position is rare, and asked of the main thread's own parse.
      const media = reading.text?.media;
      return Array.isArray(media) ? { reading, mediaAt: media.map((_entry, index) => locate(['media', index])) } : { reading };
    });
    answer = { id: batch.id, results };
  } catch (error) {
    answer = { id: batch.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort!.postMessage(answer);
});
