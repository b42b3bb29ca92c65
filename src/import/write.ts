import { resolve } from 'node:path';
import { createFileExclusive } from '../state/atomic.js';
import type { StateStore } from '../state/state-store.js';
import type { ImportItem } from './prepare.js';

export interface WriteOutcome {
  written: ImportItem[];
  failed: { item: ImportItem; error: Error }[];
}

/**
 * Writes each imported post: its file first, then the records of the media downloaded for it and
 * its state record (so a crash in between
 * leaves a file that the next import recognises and records, never a record without a file).
 * One failure does not stop the others. Hold the state lock while calling this.
 */
export async function writeImport(items: readonly ImportItem[], context: { root: string; store: StateStore; now: () => Date }): Promise<WriteOutcome> {
  const outcome: WriteOutcome = { written: [], failed: [] };
  for (const item of items) {
    try {
      if (!item.fileExists) {
        if (!(await createFileExclusive(resolve(context.root, item.file), item.text, { root: context.root }))) {
          throw new Error(`${item.file} appeared while importing; it was left as it is`);
        }
      }
      // The media first: a post record whose media ids the state does not know would plan as drifted.
      for (const media of item.downloaded) await context.store.recordMedia(media.sha256, media.record);
      await context.store.recordUpdate(item.key, { ...item.record, appliedAt: context.now().toISOString() });
      outcome.written.push(item);
    } catch (error) {
      outcome.failed.push({ item, error: error instanceof Error ? error : new Error(String(error)) });
    }
  }
  return outcome;
}
