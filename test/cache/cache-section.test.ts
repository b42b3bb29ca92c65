import { lstatSync } from 'node:fs';
import { readFile, readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CacheSection, SECTION_FORMAT } from '../../src/cache/cache-section.js';
import { SETTLED_MS, StampedFacts, type StampedEntry } from '../../src/cache/file-stamps.js';
import { RunCache } from '../../src/cache/run-cache.js';
import type { MemoReading } from '../../src/content/reading-memo.js';
import { desired, shape } from '../helpers/fixtures.js';
import { testdir } from '../helpers/testdir.js';

const identity = { build: 'b1', context: 'c1' };

describe('CacheSection', () => {
  it('round-trips its entries and keeps only the ones a run used', async () => {
    const dir = await testdir();
    const path = join(dir, 'cache/readings.json');
    const first = CacheSection.open<number>(path, identity);
    first.set('a', 1);
    first.set('b', 2);
    expect(await first.save()).toBe(true);

    const second = CacheSection.open<number>(path, identity);
    expect(second.get('a')).toBe(1);
    expect(second.dirty).toBe(true); // `b` was not used: saving drops it
    await second.save();
    const third = CacheSection.open<number>(path, identity);
    expect([third.get('a'), third.get('b')]).toEqual([1, undefined]);
    expect(third.dirty).toBe(false);
    expect(await third.save()).toBe(false);
  });

  it('writes its file in ASCII, and a second save of the same run only when something changed since', async () => {
    const dir = await testdir();
    const path = join(dir, 'cache/texts.json');
    const section = CacheSection.open<string>(path, identity);
    section.set('café', 'Café ☕ 👋🏽 \u2028');
    expect(await section.save()).toBe(true);
    expect(await section.save()).toBe(false);
    section.set('b', 'B');
    expect(await section.save()).toBe(true);
    const text = await readFile(path, 'latin1');
    expect(/[^\x00-\x7e]/.test(text)).toBe(false);
    const again = CacheSection.open<string>(path, identity);
    expect([again.get('café'), again.get('b')]).toEqual(['Café ☕ 👋🏽 \u2028', 'B']);
  });

  it('is empty when its file is missing, corrupt, or from another build or context', async () => {
    const dir = await testdir({
      'corrupt.json': `{"format":${SECTION_FORMAT},"build":"b1","context":"c1","entries":[["a",1]`,
      'other.json': JSON.stringify({ format: SECTION_FORMAT, build: 'b0', context: 'c1', entries: [['a', 1]] }),
      'older.json': JSON.stringify({ format: SECTION_FORMAT - 1, build: 'b1', context: 'c1', entries: [['a', 1]] }),
    });
    expect(CacheSection.open(join(dir, 'missing.json'), identity).get('a')).toBeUndefined();
    expect(CacheSection.open(join(dir, 'corrupt.json'), identity).get('a')).toBeUndefined();
    expect(CacheSection.open(join(dir, 'older.json'), identity).get('a')).toBeUndefined();
    expect(CacheSection.open(join(dir, 'other.json'), identity).get('a')).toBeUndefined();
    expect(CacheSection.open(join(dir, 'other.json'), { build: 'b0', context: 'c2' }).get('a')).toBeUndefined();
    expect(CacheSection.open(join(dir, 'other.json'), { build: 'b0', context: 'c1' }).get('a')).toBe(1);
  });

  it('takes a file that is not ASCII for one it did not write (it writes only ASCII)', async () => {
    const dir = await testdir({ 'edited.json': JSON.stringify({ format: SECTION_FORMAT, build: 'b1', context: 'c1', entries: [['a', 'café']] }) });
    expect(CacheSection.open(join(dir, 'edited.json'), identity).get('a')).toBeUndefined();
  });

  it('never throws when it cannot write, and leaves no temporary file', async () => {
    const dir = await testdir({ 'blocker': 'a file where the folder should be' });
    const section = CacheSection.open<number>(join(dir, 'blocker/readings.json'), identity);
    section.set('a', 1);
    expect(await section.save()).toBe(false);
    expect(await readdir(dir)).toEqual(['blocker']);
  });
});

describe('StampedFacts', () => {
  const stats = { size: 10, mtimeMs: 1_000, ctimeMs: 1_000, ino: 7 };

  it('answers while the stamp is unchanged, and forgets a changed file', async () => {
    const dir = await testdir();
    const facts = new StampedFacts<string>(CacheSection.open<StampedEntry<string>>(join(dir, 'media.json'), identity));
    facts.set('/p/a.png', stats, 'sha-a', 1_000 + SETTLED_MS + 1);
    expect(facts.get('/p/a.png', stats)).toBe('sha-a');
    expect(facts.get('/p/a.png', { ...stats, mtimeMs: 1_001 })).toBeUndefined();
    expect(facts.get('/p/a.png', stats)).toBeUndefined();
  });

  it('does not keep a fact about a file changed too recently to be sure of it (racily clean)', async () => {
    const dir = await testdir();
    const facts = new StampedFacts<string>(CacheSection.open<StampedEntry<string>>(join(dir, 'media.json'), identity));
    facts.set('/p/a.png', stats, 'sha-a', 1_000 + SETTLED_MS - 1);
    expect(facts.get('/p/a.png', stats)).toBeUndefined();
  });
});

/** The reading of a post file `key`, and how its file was read: long after its last change, so its stamp is kept. */
const reading = (key: string): MemoReading => ({ post: desired(key, shape()), diagnostics: [], media: undefined });
const settledRead = (path: string) => {
  const stats = lstatSync(path);
  return { stats, readAt: stats.mtimeMs + SETTLED_MS };
};

describe('RunCache', () => {
  it('writes a .gitignore beside its sections, so no project has to list the folder', async () => {
    const root = await testdir({ 'posts/a.md': 'A' });
    const cache = RunCache.open(root, { enabled: true, build: 'test' });
    cache.posts({ root, contentDir: join(root, 'posts'), timezone: 'UTC', accounts: {} })!.keep('posts/a.md', settledRead(join(root, 'posts/a.md')), reading('a'));
    await cache.save();
    expect((await readdir(join(root, '.postsync/cache'))).sort()).toEqual(['.gitignore', 'posts.json']);
    expect(await readFile(join(root, '.postsync/cache/.gitignore'), 'utf8')).toMatch(/^\*$/m);
  });

  it('hands a reading out while the file keeps its stamp, per content config: another timezone or alias set starts empty', async () => {
    const root = await testdir({ 'posts/a.md': 'A' });
    const path = join(root, 'posts/a.md');
    const config = { root, contentDir: join(root, 'posts'), timezone: 'UTC', accounts: { photo: 'id-1' } };
    const cache = RunCache.open(root, { enabled: true, build: 'test' });
    cache.posts(config)!.keep('posts/a.md', settledRead(path), reading('a'));
    await cache.save();
    const again = () => RunCache.open(root, { enabled: true, build: 'test' });
    expect(again().posts(config)!.reading('posts/a.md', path)).toEqual(reading('a'));
    expect(again().posts({ ...config, timezone: 'Europe/Berlin' })!.reading('posts/a.md', path)).toBeUndefined();
    expect(again().posts({ ...config, accounts: { photo: 'id-2' } })!.reading('posts/a.md', path)).toBeUndefined();
    expect(RunCache.open(root, { enabled: true, build: 'other' }).posts(config)!.reading('posts/a.md', path)).toBeUndefined();
    await utimes(path, new Date('2026-01-01'), new Date('2026-01-01'));
    expect(again().posts(config)!.reading('posts/a.md', path)).toBeUndefined();
  });

  it('hands out nothing and writes nothing when disabled', async () => {
    const root = await testdir();
    const cache = RunCache.open(root, { enabled: false, build: 'test' });
    expect(cache.posts({ root, contentDir: root, timezone: 'UTC', accounts: {} })).toBeUndefined();
    await cache.save();
    expect(await readdir(root)).toEqual([]);
  });
});
