import { createHash } from 'node:crypto';
import { symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePng } from '../helpers/media-generators/index.js';
import { probeMedia } from '../../src/media/probe.js';
import { readContent } from '../../src/content/read-content.js';
import { readContentFile } from '../../src/content/read-file.js';
import { testdir } from '../helpers/testdir.js';
import { fakeMedia, fakeProbe } from './fake-probe.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function configFor(root: string) {
  return { root, contentDir: join(root, 'posts'), timezone: 'UTC', accounts: {} };
}

function post(media: string): string {
  return `---\nmedia:\n${media}\n---\nText`;
}

describe('media paths', () => {
  it('resolves next to the post first, then from the project root', async () => {
    const root = await testdir({
      'posts/a.md': post('  - pic.png\n  - media/pic.png'),
      'posts/pic.png': 'next to the post',
      'pic.png': 'at the root',
      'media/pic.png': 'in media',
    });
    const { posts, diagnostics } = await readContent({ config: configFor(root), now: NOW, media: fakeMedia() });
    expect(diagnostics).toEqual([]);
    expect(posts[0]!.media.map((m) => [m.path, m.sha256, m.sizeBytes, m.absolutePath])).toEqual([
      ['posts/pic.png', sha('next to the post'), 16, join(root, 'posts/pic.png')],
      ['media/pic.png', sha('in media'), 8, join(root, 'media/pic.png')],
    ]);
  });

  it('refuses escapes, absolute paths, symlinks out of the project, folders, missing and unknown files', async () => {
    const outside = await testdir({ 'secret.png': 'outside' });
    const root = await testdir({
      'posts/a.md': post(
        [
          '  - ../../x.png',
          `  - ${join(outside, 'secret.png')}`,
          '  - { path: media/link.png, alt: x }',
          '  - media',
          '  - media/nope.png',
          '  - media/notes.txt',
          '  - C:\\\\images\\\\x.png',
        ].join('\n'),
      ),
      'media/notes.txt': 'text',
    });
    await symlink(join(outside, 'secret.png'), join(root, 'media/link.png'));
    const { posts, diagnostics } = await readContent({ config: configFor(root), now: NOW, media: fakeMedia() });
    expect(posts).toEqual([]);
    expect(diagnostics.map((d) => [d.line, d.column, d.code])).toEqual([
      [3, 5, 'media-outside-project'],
      [4, 5, 'media-path-absolute'],
      [5, 13, 'media-outside-project'],
      [6, 5, 'media-not-a-file'],
      [7, 5, 'media-not-found'],
      [8, 5, 'media-unsupported-type'],
      [9, 5, 'media-path-absolute'],
    ]);
    for (const diagnostic of diagnostics) {
      expect(diagnostic.file).toBe('posts/a.md');
      expect(diagnostic.hint).toBeTruthy();
    }
    expect(diagnostics[2]!.message).toMatch(/symlink that leads outside the project/);
    expect(diagnostics[4]!.expected).toBe('a file at `posts/media/nope.png` or `media/nope.png`');
    expect(diagnostics[5]!.found).toBe('application/octet-stream');
  });

  it('names the file a path differs from only in letter case (found on a Mac, missing on Linux)', async () => {
    const root = await testdir({
      'posts/a.md': post('  - media/hero.jpg\n  - Media/Team/photo.png\n  - hero.JPG'),
      'media/Hero.JPG': 'jpeg',
      'media/team/Photo.png': 'png',
      'posts/Hero.jpg': 'next to the post',
    });
    const { diagnostics } = await readContent({ config: configFor(root), now: NOW, media: fakeMedia() });
    expect(diagnostics.map((d) => [d.line, d.column, d.code, d.hint?.split('?')[0]])).toEqual([
      [3, 5, 'media-wrong-case', 'did you mean `media/Hero.JPG`'],
      [4, 5, 'media-wrong-case', 'did you mean `media/team/Photo.png`'],
      [5, 5, 'media-wrong-case', 'did you mean `Hero.jpg`'],
    ]);
    expect(diagnostics[0]).toMatchObject({ severity: 'error', file: 'posts/a.md', found: '`media/hero.jpg`' });
    expect(diagnostics[0]!.message).toBe('media file `media/hero.jpg` does not exist; `media/Hero.JPG` differs only in letter case');
    expect(diagnostics[0]!.hint).toMatch(/case-sensitive/);
  });

  it('allows symlinks that stay inside the project', async () => {
    const root = await testdir({ 'posts/a.md': post('  - media/real.png\n  - cover.png'), 'assets/real.png': 'png' });
    await symlink(join(root, 'assets'), join(root, 'media'));
    await symlink('../assets/real.png', join(root, 'posts/cover.png'));
    const { posts, diagnostics } = await readContent({ config: configFor(root), now: NOW, media: fakeMedia() });
    expect(diagnostics).toEqual([]);
    expect(posts[0]!.media.map((m) => [m.ref, m.path])).toEqual([
      ['media/real.png', 'assets/real.png'],
      ['cover.png', 'assets/real.png'],
    ]);
  });

  it('hashes and probes each file once per run, and again when it changes', async () => {
    const root = await testdir({
      'posts/a.md': post('  - ../media/v.mp4'),
      'posts/b.md': post('  - media/v.mp4\n  - media/v.mp4'),
      'media/v.mp4': 'video-1',
    });
    const probe = fakeProbe();
    const options = { config: configFor(root), now: NOW, media: fakeMedia(probe) };
    const first = await readContent(options);
    expect(first.diagnostics).toEqual([]);
    expect(first.posts.flatMap((p) => p.shape.media)).toEqual([sha('video-1'), sha('video-1'), sha('video-1')]);
    expect(probe.calls).toHaveLength(1);

    await readContentFile('posts/a.md', options);
    expect(probe.calls).toHaveLength(1);

    await writeFile(join(root, 'media/v.mp4'), 'video-2!');
    await utimes(join(root, 'media/v.mp4'), new Date('2030-01-01'), new Date('2030-01-01'));
    const again = await readContentFile(join(root, 'posts/a.md'), options);
    expect(again.posts[0]!.shape.media).toEqual([sha('video-2!')]);
    expect(again.posts[0]!.media[0]!.sizeBytes).toBe(8);
    expect(probe.calls).toHaveLength(2);
  });

  it('works with the real prober: content type from the bytes, not the name', async () => {
    const root = await testdir({ 'posts/a.md': post('  - photo.jpg\n  - fake.png'), 'posts/photo.jpg': makePng({ width: 2, height: 2 }), 'posts/fake.png': 'not really a png' });
    const { diagnostics } = await readContent({ config: configFor(root), now: NOW, media: fakeMedia(probeMedia) });
    expect(diagnostics).toMatchObject([{ code: 'media-unsupported-type', line: 4, found: 'unrecognized file format' }]);
    const good = await testdir({ 'posts/a.md': post('  - photo.jpg'), 'posts/photo.jpg': makePng({ width: 2, height: 2 }) });
    const { posts } = await readContent({ config: configFor(good), now: NOW, media: fakeMedia(probeMedia) });
    expect(posts[0]!.media[0]).toMatchObject({ contentType: 'image/png', kind: 'image' });
  });
});
