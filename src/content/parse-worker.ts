// The entry of a parse pool's worker thread (parse-pool.ts): interprets batches of post files and
// answers each with its reading and its positions as plain data, in the order given.
import { parentPort } from 'node:worker_threads';
import { interpretPostFile } from './interpret-file.js';
import type { ParseBatch, ParseAnswer } from './parse-pool.js';

parentPort?.on('message', (batch: ParseBatch) => {
  let answer: ParseAnswer;
  try {
    const results = batch.files.map(({ bytes, context }) => {
      const { reading, positions } = interpretPostFile(bytes, context);
      // Without a text the reader stops at the reading: nothing asks for a position.
      return reading.text === undefined ? { reading } : { reading, positions: positions() };
    });
    answer = { id: batch.id, results };
  } catch (error) {
    answer = { id: batch.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort!.postMessage(answer);
});
