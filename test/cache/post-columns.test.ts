import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CacheSection } from '../../src/cache/cache-section.js';
import { postColumns } from '../../src/cache/post-columns.js';
import type { PostEntry } from '../../src/cache/post-cache.js';
import { testdir } from '../helpers/testdir.js';

const identity = { build: 'b1', context: 'c1' };
const ACCOUNT = '6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01';

function entry(n: number, overrides: Omit<Partial<PostEntry>, 'summary'> & { summary?: Partial<PostEntry['summary']> } = {}): PostEntry {
  const { summary, ...rest } = overrides;
  return {
    digest: `digest-${n}`,
    stamp: { size: 100 + n, mtimeMs: 1_795_307_390_489.0142 + n, ctimeMs: 1_795_307_390_489.5 + n, ino: 5_325_052 + n },
    summary: { key: `posts/p${n}`, diagnostics: [], accountIds: [ACCOUNT], media: ['media/cover.png'], mediaHashes: '', shapeHash: `shape-${n}`, ...summary },
    checks: { rules: 'rules-1', accounts: [], media: [] },
    ...rest,
  };
}

describe('the posts section as columns', () => {
  it('gives back every entry as it was set, with fractional stamps and entries without one', async () => {
    const dir = await testdir();
    const path = join(dir, 'posts.json');
    const entries = new Map<string, PostEntry>([
      ['posts/a.md', entry(1)],
      ['posts/b.md', entry(2, { stamp: null, summary: { keyPosition: { line: 2, column: 5 } }, checks: { rules: 'rules-1', accounts: [{ severity: 'warning', code: 'w', message: 'm' }], media: [] } })],
      ['posts/c.md', entry(3, { summary: { mediaHashes: 'abcdef0123456789', accountIds: [], media: undefined }, checks: null })],
      ['posts/d.md', entry(4, { summary: { snippets: [{ path: 'snippets/sig.md', digest: 'snippet-digest' }, { path: 'snippets/gone.md', digest: null }] } })],
    ]);
    const first = CacheSection.open(path, identity, postColumns);
    for (const [file, value] of entries) first.set(file, value);
    expect(await first.save()).toBe(true);

    const again = CacheSection.open(path, identity, postColumns);
    for (const [file, value] of entries) expect(again.get(file)).toEqual(value);
    expect(again.get('posts/missing.md')).toBeUndefined();
    expect(again.dirty).toBe(false);
  });

  it('keeps each distinct account list, media list and check result once, shared by the entries that hold it', async () => {
    const dir = await testdir();
    const path = join(dir, 'posts.json');
    const section = CacheSection.open(path, identity, postColumns);
    for (let n = 0; n < 50; n += 1) section.set(`posts/p${n}.md`, entry(n));
    await section.save();
    const written = JSON.parse(await readFile(path, 'utf8')) as { entries: { values: unknown[] } };
    expect(written.entries.values).toEqual([[ACCOUNT], ['media/cover.png'], 0, ['rules-1']]);
    const loaded = CacheSection.open(path, identity, postColumns);
    expect(loaded.get('posts/p1.md')!.summary.accountIds).toBe(loaded.get('posts/p2.md')!.summary.accountIds);
  });

  it('is empty when the columns do not fit together', async () => {
    const dir = await testdir();
    const path = join(dir, 'posts.json');
    const section = CacheSection.open(path, identity, postColumns);
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
      expect(CacheSection.open(path, identity, postColumns).get('posts/a.md')).toBeUndefined();
    }
  });
});
