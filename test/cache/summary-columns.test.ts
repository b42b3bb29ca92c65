import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CacheSection } from '../../src/cache/cache-section.js';
import { summaryColumns } from '../../src/cache/summary-columns.js';
import type { SummaryEntry } from '../../src/cache/summary-store.js';
import { testdir } from '../helpers/testdir.js';

const identity = { build: 'b1', context: 'c1' };
const ACCOUNT = '6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01';

function entry(n: number, overrides: Partial<Record<number, unknown>> = {}): SummaryEntry {
  const base: SummaryEntry = [`digest-${n}`, 100 + n, 1_795_307_390_489.0142 + n, 1_795_307_390_489.5 + n, 5_325_052 + n, `shape-${n}`, '', `posts/p${n}`, [ACCOUNT], ['media/cover.png'], 0, ['rules-1']];
  for (const [index, value] of Object.entries(overrides)) base[Number(index)] = value as never;
  return base;
}

describe('the posts section as columns', () => {
  it('gives back every entry as it was set, with fractional stamps and entries without one', async () => {
    const dir = await testdir();
    const path = join(dir, 'posts.json');
    const entries = new Map<string, SummaryEntry>([
      ['posts/a.md', entry(1)],
      ['posts/b.md', entry(2, { 1: -1, 2: -1, 3: -1, 4: -1, 10: { keyPosition: { line: 2, column: 5 } }, 11: ['rules-1', [{ severity: 'warning', code: 'w', message: 'm' }], []] })],
      ['posts/c.md', entry(3, { 6: 'abcdef0123456789', 8: [], 9: 0, 11: 0 })],
    ]);
    const first = CacheSection.open(path, identity, summaryColumns);
    for (const [file, value] of entries) first.set(file, value);
    expect(await first.save()).toBe(true);

    const again = CacheSection.open(path, identity, summaryColumns);
    for (const [file, value] of entries) expect(again.get(file)).toEqual(value);
    expect(again.get('posts/missing.md')).toBeUndefined();
    expect(again.dirty).toBe(false);
  });

  it('keeps each distinct account list, media list and check result once, shared by the entries that hold it', async () => {
    const dir = await testdir();
    const path = join(dir, 'posts.json');
    const section = CacheSection.open(path, identity, summaryColumns);
    for (let n = 0; n < 50; n += 1) section.set(`posts/p${n}.md`, entry(n));
    await section.save();
    const written = JSON.parse(await readFile(path, 'utf8')) as { entries: { values: unknown[] } };
    expect(written.entries.values).toEqual([[ACCOUNT], ['media/cover.png'], 0, ['rules-1']]);
    const loaded = CacheSection.open(path, identity, summaryColumns);
    expect(loaded.get('posts/p1.md')![8]).toBe(loaded.get('posts/p2.md')![8]);
  });

  it('is empty when the columns do not fit together', async () => {
    const dir = await testdir();
    const path = join(dir, 'posts.json');
    const section = CacheSection.open(path, identity, summaryColumns);
    section.set('posts/a.md', entry(1));
    await section.save();
    const good = JSON.parse(await readFile(path, 'utf8')) as { entries: Record<string, unknown> };
    const broken = [
      { ...good.entries, keys: [] },
      { ...good.entries, refs: [0, 1, 2, 99] },
      { ...good.entries, stamps: 'AAAA' },
      { ...good.entries, files: 'posts/a.md' },
      [['posts/a.md', entry(1)]],
    ];
    for (const entries of broken) {
      await writeFile(path, JSON.stringify({ ...good, entries }));
      expect(CacheSection.open(path, identity, summaryColumns).get('posts/a.md')).toBeUndefined();
    }
  });
});
