import { rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunCache } from '../../src/cache/run-cache.js';
import { readContent } from '../../src/content/read-content.js';
import type { ReadContentOptions, ReadingStore } from '../../src/content/read-file.js';
import { createPlanCaches } from '../../src/run/plan-caches.js';
import { testdir } from '../helpers/testdir.js';
import { fakeProbe } from './fake-probe.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const PHOTO = '6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01';

const FILES = {
  'posts/plain.md': 'Just text',
  'posts/scheduled.md': `---\nscheduledAt: 2026-07-01 09:00\ntargets: [photo]\nmedia:\n  - media/pic.png\n  - { path: media/pic.png, alt: twice }\n---\n\nText with media`,
  'posts/options.md': `---\nid: custom-key\ntargets:\n  - account: photo\n    content: Override\n    options: { shareToFeed: true }\n---\nBody`,
  'posts/ambiguous.md': '---\nscheduledAt: 2026-10-25 02:30\ntargets: [photo]\n---\nA warning, not an error',
  'posts/broken.md': '---\ntargets: [nobody]\nfoo: 1\n---\nErrors are never cached',
  'media/pic.png': 'png bytes',
};

/** A run as `plan` makes it: caches backed by `.postsync/cache`, saved at the end. */
async function run(root: string, overrides: Partial<ReadContentOptions> & { timezone?: string } = {}) {
  const kept = RunCache.open(root, { enabled: true, build: 'test' });
  const caches = createPlanCaches(kept);
  const config = { root, contentDir: join(root, 'posts'), timezone: overrides.timezone ?? 'Europe/Berlin', accounts: { photo: PHOTO } };
  const probe = fakeProbe();
  const readings = counting(kept.readings(config)!);
  const result = await readContent({ config, now: NOW, probe, mediaCache: caches.media, readings, ...overrides });
  await kept.save();
  return { ...result, hits: [...readings.unread, ...readings.hits], unread: readings.unread, probed: probe.calls.length };
}

function counting(store: ReadingStore): ReadingStore & { hits: string[]; unread: string[] } {
  const hits: string[] = [];
  const unread: string[] = [];
  return {
    hits,
    unread,
    byStamp: (file, stats) => {
      const reading = store.byStamp(file, stats);
      if (reading !== undefined) unread.push(file);
      return reading;
    },
    get: (file, digest) => {
      const reading = store.get(file, digest);
      if (reading !== undefined) hits.push(file);
      return reading;
    },
    set: (file, digest, reading, read) => store.set(file, digest, reading, read),
    restamp: (file, digest, read) => store.restamp(file, digest, read),
    facts: (file, fingerprint) => store.facts(file, fingerprint),
    addFacts: (file, fingerprint, facts) => store.addFacts(file, fingerprint, facts),
  };
}

const settle = (root: string, path: string) => utimes(join(root, path), new Date('2026-01-01'), new Date('2026-01-01'));

describe('reading post files with readings kept from an earlier run', () => {
  it('gives exactly what a fresh read gives, without parsing unchanged files or hashing unchanged media', async () => {
    const root = await testdir(FILES);
    await settle(root, 'media/pic.png');
    const fresh = await readContent({ config: { root, contentDir: join(root, 'posts'), timezone: 'Europe/Berlin', accounts: { photo: PHOTO } }, now: NOW, probe: fakeProbe() });
    const cold = await run(root);
    const warm = await run(root);
    expect(cold.hits).toEqual([]);
    expect(warm.hits.sort()).toEqual(['posts/ambiguous.md', 'posts/options.md', 'posts/plain.md', 'posts/scheduled.md']);
    expect(warm.probed).toBe(0);
    for (const result of [cold, warm]) {
      // A post read with readings kept also carries its fingerprint; otherwise it is the same.
      expect(result.posts.map(({ fingerprint, ...post }) => (expect(fingerprint).toMatch(/^[A-Za-z0-9+/=]{28}:([0-9a-f]{16}(,|$))*$/), post))).toEqual(fresh.posts);
      expect(result.diagnostics).toEqual(fresh.diagnostics);
    }
    expect(warm.diagnostics.map((d) => `${d.file} ${d.code}`)).toEqual(expect.arrayContaining(['posts/ambiguous.md scheduled-at-ambiguous', 'posts/broken.md unknown-field']));
  });

  it('reads an edited file afresh', async () => {
    const root = await testdir(FILES);
    await run(root);
    await writeFile(join(root, 'posts/plain.md'), 'Edited text');
    const warm = await run(root);
    expect(warm.hits).not.toContain('posts/plain.md');
    expect(warm.posts.find((post) => post.key === 'plain')!.shape.content).toBe('Edited text');
  });

  it('checks the clock on every read: a kept reading scheduled in the past is an error unless the post is owned', async () => {
    const root = await testdir(FILES);
    await run(root);
    const later = new Date('2026-08-01T00:00:00Z');
    const late = await run(root, { now: later });
    expect(late.hits).toContain('posts/scheduled.md');
    expect(late.diagnostics.filter((d) => d.file === 'posts/scheduled.md').map((d) => [d.code, d.line, d.column])).toEqual([['scheduled-at-past', 2, 14]]);
    const owned = await run(root, { now: later, acceptPastSchedule: ({ key }) => key === 'scheduled' });
    expect(owned.posts.map((post) => post.key)).toContain('scheduled');
  });

  it('resolves media paths on every read: a deleted file is reported where the post names it, a changed one hashed again', async () => {
    const root = await testdir(FILES);
    await run(root);
    await rm(join(root, 'media/pic.png'));
    const missing = await run(root);
    expect(missing.diagnostics.filter((d) => d.file === 'posts/scheduled.md').map((d) => [d.code, d.line, d.column])).toEqual([
      ['media-not-found', 5, 5],
      ['media-not-found', 6, 13],
    ]);
    await writeFile(join(root, 'media/pic.png'), 'other png bytes');
    const changed = await run(root);
    const post = changed.posts.find((p) => p.key === 'scheduled')!;
    expect(post.media.map((m) => [m.sizeBytes, m.alt])).toEqual([[15, undefined], [15, 'twice']]);
  });

  it('does not reuse readings made under another timezone', async () => {
    const root = await testdir(FILES);
    await run(root);
    const utc = await run(root, { timezone: 'UTC' });
    expect(utc.hits).toEqual([]);
    expect(utc.posts.find((post) => post.key === 'scheduled')!.shape.scheduledAt).toBe('2026-07-01T09:00:00.000Z');
  });

  it('skips reading a file whose stamp has settled and not changed, and notices an edit that keeps size and mtime', async () => {
    const root = await testdir(FILES);
    const old = new Date('2026-01-01');
    await utimes(join(root, 'posts/plain.md'), old, old);
    const first = await run(root);
    expect(first.unread).toEqual([]);
    const second = await run(root);
    expect(second.unread).toEqual(['posts/plain.md']); // the others were written just now: read, found by digest
    expect(second.hits.sort()).toEqual(['posts/ambiguous.md', 'posts/options.md', 'posts/plain.md', 'posts/scheduled.md']);

    await writeFile(join(root, 'posts/plain.md'), 'Just TEXT');
    await utimes(join(root, 'posts/plain.md'), old, old);
    const edited = await run(root);
    expect(edited.unread).toEqual([]);
    expect(edited.posts.find((post) => post.key === 'plain')!.shape.content).toBe('Just TEXT');
  });
});
