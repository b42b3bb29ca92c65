import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { readContent } from '../../src/content/read-content.js';
import { createPlanCaches } from '../../src/pipeline/plan-caches.js';
import { ContentSnapshot } from '../../src/watch/content-snapshot.js';
import { demoProject, post } from '../e2e/project.js';

const NOW = new Date('2030-06-01T10:00:00Z');

async function setUp(posts: Record<string, string>) {
  const dir = await demoProject(posts);
  const config = await loadConfig({ cwd: dir, env: {} });
  const caches = createPlanCaches();
  const cache = new ContentSnapshot({ config, caches });
  await cache.readAll(NOW);
  /** What readContent gives for the whole folder now: the cache must always agree. */
  const fresh = () => readContent({ config, now: NOW, media: caches.media });
  return { dir, cache, fresh, path: (file: string) => join(dir, file) };
}

const keys = (cache: ContentSnapshot) => cache.result().posts.map((p) => p.key);

describe('ContentSnapshot', () => {
  it('stays equal to a full read through edits, duplicate keys, deletes and a deleted folder', async () => {
    const { cache, fresh, path } = await setUp({ 'a.md': post({ body: 'A' }), '2026/b.md': post({ body: 'B' }) });
    expect(cache.result()).toEqual(await fresh());
    expect(keys(cache)).toEqual(['2026/b', 'a']);

    await writeFile(path('posts/c.md'), `---\nid: a\ntargets: [photo]\nmedia: [media/cover.png]\n---\nC\n`);
    await cache.readFiles([path('posts/c.md')], NOW);
    expect(cache.result()).toEqual(await fresh());
    expect(cache.result().diagnostics.map((d) => d.code)).toEqual(['duplicate-key', 'duplicate-key']);

    await rm(path('posts/c.md'));
    await cache.readFiles([path('posts/c.md')], NOW);
    await rm(path('posts/2026'), { recursive: true });
    await cache.syncFolder(path('posts/2026'), NOW);
    expect(cache.result()).toEqual(await fresh());
    expect(keys(cache)).toEqual(['a']);

    await mkdir(path('posts/2026'));
    await writeFile(path('posts/2026/b.md'), post({ body: 'B again' }));
    await cache.syncFolder(path('posts/2026'), NOW);
    expect(cache.result()).toEqual(await fresh());

    await rm(path('posts'), { recursive: true });
    await cache.syncFolder(path('posts'), NOW);
    expect(cache.result().diagnostics.map((d) => d.code)).toEqual(['content-dir-missing']);
  });

  it('knows which posts use a media file, which wait with errors, and which come due', async () => {
    const { cache, path } = await setUp({
      'photo.md': post({ body: 'Photo' }),
      'video.md': post({ body: 'Video', targets: '[short]', media: '[media/teaser.mp4]' }),
      'soon.md': post({ body: 'Soon', scheduledAt: '2030-06-01 12:30' }),
      'broken.md': post({ body: 'Broken', media: '[media/missing.png]' }),
    });
    expect(cache.filesUsingMedia(path('media/teaser.mp4'))).toEqual([path('posts/video.md')]);
    expect(cache.filesUsingMedia(path('media')).sort()).toEqual([path('posts/photo.md'), path('posts/soon.md'), path('posts/video.md')]);
    expect(cache.filesWithErrors()).toEqual([path('posts/broken.md')]);
    expect([...cache.mediaFiles()].sort()).toEqual([path('media/cover.png'), path('media/teaser.mp4')]);
    // Europe/Berlin: 12:30 local is 10:30 UTC.
    expect(cache.filesScheduledBetween(NOW, new Date('2030-06-01T10:29:00Z'))).toEqual([]);
    expect(cache.filesScheduledBetween(NOW, new Date('2030-06-01T10:31:00Z'))).toEqual([path('posts/soon.md')]);
  });

  it('reports the files whose key became owned or not, to be read again', async () => {
    const { cache, path } = await setUp({ 'a.md': post({ body: 'A' }), 'b.md': post({ body: 'B' }) });
    expect(cache.setOwnedKeys(new Set(['a']))).toEqual([path('posts/a.md')]);
    expect(cache.setOwnedKeys(new Set(['a']))).toEqual([]);
    expect(cache.setOwnedKeys(new Set(['b'])).sort()).toEqual([path('posts/a.md'), path('posts/b.md')]);
  });

  it('watches the snippet files posts include, and names the posts to read again when one changes', async () => {
    const { dir, cache, fresh, path } = await setUp({ 'a.md': post({ body: 'A\n{{> snippets/sig.md }}' }), 'b.md': post({ body: 'B' }) });
    expect(cache.filesWithErrors()).toEqual([path('posts/a.md')]);
    expect([...cache.snippetFiles()]).toEqual([path('snippets/sig.md')]);
    await mkdir(join(dir, 'snippets'));
    await writeFile(path('snippets/sig.md'), 'Signed');
    expect(cache.filesUsingMedia(path('snippets/sig.md'))).toEqual([path('posts/a.md')]);
    await cache.readFiles(cache.filesUsingMedia(path('snippets/sig.md')), NOW);
    expect(cache.result()).toEqual(await fresh());
    expect(cache.result().posts.find((p) => p.key === 'a')!.shape.content).toBe('A\nSigned');
  });

  it("reads a repeat's file again when one of its occurrences becomes owned", async () => {
    const repeat = ['---', 'scheduledAt: 2031-01-06 09:00', 'targets: [photo]', 'media: [media/cover.png]', 'repeat: { every: week, count: 2 }', '---', 'R', ''].join('\n');
    const { cache, path } = await setUp({ 'r.md': repeat });
    expect(keys(cache)).toEqual(['r@2031-01-06', 'r@2031-01-13']);
    expect(cache.setOwnedKeys(new Set(['r@2031-01-13']))).toEqual([path('posts/r.md')]);
  });
});
