import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { RunCache } from '../../src/cache/run-cache.js';
import { readContent } from '../../src/content/read-content.js';
import type { ReadingMemo } from '../../src/content/reading-memo.js';
import type { ContentConfig, ReadContentOptions } from '../../src/content/read-file.js';
import { MediaMemo } from '../../src/content/media-memo.js';
import { fakeMedia, fakeProbe } from './fake-probe.js';

/** What a test run reads with: its own media memo unless it passes one. */
type ReadOptions = { config: ContentConfig; now: Date } & Partial<Omit<ReadContentOptions, 'config' | 'now'>>;

export const LONG_AGO = new Date('2026-01-01');

/** Every file named last changed long ago, so its stamp can vouch for its bytes. */
export async function settle(root: string, paths: readonly string[]): Promise<void> {
  for (const path of paths) await utimes(join(root, path), LONG_AGO, LONG_AGO);
}

/**
 * A run as `plan` makes it: the memo is loaded from `.postsync/cache` and saved at the end. Says
 * which files the memo gave (`unread`), which it was given (`remembered`) and how many media
 * files were probed.
 */
export async function memoRun(options: ReadOptions) {
  const kept = RunCache.open(options.config.root, { enabled: true, build: 'test' });
  const probe = fakeProbe();
  const memo = counting(kept.posts(options.config)!);
  const result = await readContent({ media: new MediaMemo(probe, kept.mediaFacts()), ...options, memo });
  await kept.save();
  return { ...result, unread: memo.unread, remembered: memo.remembered, probed: probe.calls.length };
}

/** The same read with no memo at all. */
export function freshRead(options: ReadOptions) {
  return readContent({ media: fakeMedia(), ...options });
}

function counting(store: ReadingMemo): ReadingMemo & { unread: string[]; remembered: string[] } {
  const unread: string[] = [];
  const remembered: string[] = [];
  return {
    unread,
    remembered,
    reading: (file, path) => {
      const reading = store.reading(file, path);
      if (reading !== undefined) unread.push(file);
      return reading;
    },
    keep: (file, read, reading) => {
      remembered.push(file);
      store.keep(file, read, reading);
    },
  };
}
