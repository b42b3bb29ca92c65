import { randomBytes } from 'node:crypto';
import { link, mkdir, open, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { StateStore } from '../state/state-store.js';
import type { ImportItem } from './prepare.js';

export interface WriteOutcome {
  written: ImportItem[];
  failed: { item: ImportItem; error: Error }[];
}

/**
 * Creates `path` with `text` only if nothing is there yet, and never leaves a half-written file:
 * the text is written and fsynced under a temporary name, then hard-linked to `path` (which fails
 * with EEXIST when the name is taken, atomically), then the temporary name is removed.
 */
export async function createFileExclusive(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', 0o644);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await link(temp, path);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/**
 * Writes each imported post: its file first, then its state record (so a crash in between
 * leaves a file that the next import recognises and records, never a record without a file).
 * One failure does not stop the others. Hold the state lock while calling this.
 */
export async function writeImport(items: readonly ImportItem[], context: { root: string; store: StateStore; now: () => Date }): Promise<WriteOutcome> {
  const outcome: WriteOutcome = { written: [], failed: [] };
  for (const item of items) {
    try {
      if (!item.fileExists) {
        await createFileExclusive(resolve(context.root, item.file), item.text).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'EEXIST') throw new Error(`${item.file} appeared while importing; it was left as it is`);
          throw error;
        });
      }
      await context.store.recordUpdate(item.key, { ...item.record, appliedAt: context.now().toISOString() });
      outcome.written.push(item);
    } catch (error) {
      outcome.failed.push({ item, error: error instanceof Error ? error : new Error(String(error)) });
    }
  }
  return outcome;
}
