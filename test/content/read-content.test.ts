import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContentConfig } from '../../src/content/read-file.js';
import { readContent } from '../../src/content/read-content.js';
import { testdir } from '../helpers/testdir.js';
import { fakeMedia } from './fake-probe.js';

const PHOTO = '6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01';
const VIDEO = '1a2b3c4d-0a55-4c59-9d0f-3b8f5d1a7e02';
const NOW = new Date('2026-06-01T00:00:00Z');

async function project(files: Record<string, string | Buffer>, overrides: Partial<ContentConfig> = {}) {
  const root = await testdir(files);
  const config: ContentConfig = { root, contentDir: join(root, 'posts'), timezone: 'Europe/Berlin', accounts: { 'brand-photo': PHOTO, 'brand-video': VIDEO }, ...overrides };
  return readContent({ config, now: NOW, media: fakeMedia() });
}

describe('readContent', () => {
  it('refuses a schedule with no target account to publish to', async () => {
    const { posts, diagnostics } = await project({ 'posts/nowhere.md': '---\nscheduledAt: 2026-12-01 09:00\ntargets: []\n---\nText\n' });
    expect(posts).toEqual([]);
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: 'schedule-without-targets', file: 'posts/nowhere.md', line: 2, column: 14, hint: expect.stringContaining('Add the accounts') }),
    ]);
  });

  it('reads the example post of the design into a normalized DesiredPost', async () => {
    const { posts, diagnostics } = await project({
      'posts/2026-12/launch-teaser.md': [
        '---',
        'id: launch-teaser',
        'scheduledAt: 2026-12-01 09:00',
        'draft: false',
        'targets:',
        '  - brand-video',
        '  - account: brand-photo',
        '    content: "A different text for this account"',
        '    options: { format: feed, shareToFeed: true }',
        'media:',
        '  - ../../media/teaser.mp4',
        '  - { path: media/cover.png, alt: The cover }',
        '---',
        '',
        'The shared text of the post.  ',
        '',
      ].join('\n'),
      'media/teaser.mp4': 'video bytes',
      'media/cover.png': 'image bytes',
    });
    expect(diagnostics).toEqual([]);
    expect(posts).toHaveLength(1);
    const [post] = posts;
    expect(post).toMatchObject({
      key: 'launch-teaser',
      file: 'posts/2026-12/launch-teaser.md',
      shape: {
        content: 'The shared text of the post.',
        scheduledAt: '2026-12-01T08:00:00.000Z',
        targets: [
          { socialAccountId: VIDEO, options: {} },
          { socialAccountId: PHOTO, contentOverride: 'A different text for this account', options: { format: 'feed', shareToFeed: true } },
        ].sort((a, b) => (a.socialAccountId < b.socialAccountId ? -1 : 1)),
      },
      targetLabels: ['brand-video', 'brand-photo'],
    });
    expect(post!.media.map((m) => [m.ref, m.path, m.kind, m.contentType, m.sizeBytes, m.alt])).toEqual([
      ['../../media/teaser.mp4', 'media/teaser.mp4', 'video', 'video/mp4', 11, undefined],
      ['media/cover.png', 'media/cover.png', 'image', 'image/png', 11, 'The cover'],
    ]);
    expect(post!.shape.media).toEqual(post!.media.map((m) => m.sha256));
    expect(post!.locations).toEqual({
      targets: [{ line: 6, column: 5 }, { line: 7, column: 5 }],
      media: [{ line: 11, column: 5 }, { line: 12, column: 5 }],
      body: { line: 15, column: 1 },
      schedule: { line: 3, column: 14 },
      targetKeys: [
        { option: {} },
        { content: { line: 8, column: 5 }, options: { line: 9, column: 5 }, option: { format: { line: 9, column: 16 }, shareToFeed: { line: 9, column: 30 } } },
      ],
    });
  });

  it('defaults the key to the path under the content folder and keeps drafts unscheduled', async () => {
    const { posts, diagnostics } = await project({
      'posts/a/b/note.md': 'Just text.',
      'posts/drafted.md': '---\nscheduledAt: 2026-12-01T09:00:00Z\ndraft: true\ntargets: [6F1C2D6E-0A55-4C59-9D0F-3B8F5D1A7E01]\n---\nText',
      'posts/.hidden/skip.md': 'not read',
      'posts/node_modules/x/skip.md': 'not read',
      'posts/readme.txt': 'not a post',
    });
    expect(diagnostics).toEqual([]);
    expect(posts.map((p) => [p.key, p.shape.scheduledAt, p.shape.targets.map((t) => t.socialAccountId)])).toEqual([
      ['a/b/note', null, []],
      ['drafted', null, [PHOTO]],
    ]);
    expect(posts[1]!.targetLabels).toEqual(['6F1C2D6E-0A55-4C59-9D0F-3B8F5D1A7E01']);
    // Nothing sends a draft's time; the calendar shows the draft there.
    expect(posts.map((p) => p.pencilledAt)).toEqual([undefined, '2026-12-01T09:00:00.000Z']);
  });

  it('reads BOM and CRLF files that are otherwise valid', async () => {
    const { posts, diagnostics } = await project({
      'posts/crlf.md': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('---\r\nscheduledAt: 2026-12-01 09:00\r\ntargets:\r\n  - brand-photo\r\n---\r\nLine 1\r\nLine 2\r\n')]),
    });
    expect(diagnostics).toEqual([]);
    expect(posts[0]!.shape).toEqual({ content: 'Line 1\nLine 2', scheduledAt: '2026-12-01T08:00:00.000Z', targets: [{ socialAccountId: PHOTO, options: {} }], media: [] });
  });

  it('collects every problem of every file in one run, each with file, line and column', async () => {
    const { posts, diagnostics } = await project({
      'posts/ok.md': '---\ntargets: [brand-photo]\n---\nFine.',
      'posts/misspelt.md': '---\nsceduledAt: 2026-12-01 09:00\ntargets:\n  - brand-fotos\n---\nText',
      'posts/types.md': '---\nid: 2026\ndraft: "yes"\ntargets: brand-photo\nmedia: [42]\n---\nText',
      'posts/dates.md': '---\nscheduledAt: 2026-13-45 09:00\n---\nText',
      'posts/past.md': '---\nscheduledAt: 2026-05-31 09:00\n---\nText',
      'posts/options.md': '---\ntargets:\n  - account: brand-video\n    options:\n      vidATitel: Launch\n      vidAPrivacy: public\n      vidATags: launch\n---\nText',
      'posts/yaml.md': '---\ntargets: [brand-photo\n---\nText',
      'posts/empty.md': '',
      'posts/twice.md': '---\ntargets: [brand-photo, 6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01]\n---\nText',
    });
    expect(posts.map((p) => p.key)).toEqual(['ok']);
    const summary = diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`);
    expect(summary).toEqual([
      'posts/dates.md:2:14 invalid-date',
      'posts/empty.md:1:1 empty-file',
      'posts/misspelt.md:2:1 unknown-field',
      'posts/misspelt.md:4:5 unknown-account',
      'posts/options.md:5:7 unknown-field',
      'posts/options.md:6:7 unknown-field',
      'posts/options.md:7:17 wrong-type',
      'posts/past.md:2:14 schedule-without-targets',
      'posts/past.md:2:14 scheduled-at-past',
      'posts/twice.md:2:24 duplicate-target',
      'posts/types.md:2:5 wrong-type',
      'posts/types.md:3:8 wrong-type',
      'posts/types.md:4:10 wrong-type',
      'posts/types.md:5:9 wrong-type',
      'posts/yaml.md:2:10 yaml-syntax',
    ]);
    const byCode = (file: string, code: string) => diagnostics.find((d) => d.file === file && d.code === code)!;
    expect(byCode('posts/misspelt.md', 'unknown-field')).toMatchObject({ found: '`sceduledAt`', hint: 'did you mean `scheduledAt`?' });
    expect(byCode('posts/misspelt.md', 'unknown-account')).toMatchObject({ hint: 'did you mean `brand-photo`?' });
    expect(diagnostics.find((d) => d.file === 'posts/options.md' && d.line === 5)).toMatchObject({ hint: 'did you mean `vidATitle`?' });
    expect(diagnostics.find((d) => d.file === 'posts/options.md' && d.line === 6)!.hint).toMatch(/set by the service/);
    expect(byCode('posts/types.md', 'wrong-type')).toMatchObject({ expected: expect.stringMatching(/^a non-empty text/), found: 'the number 2026', hint: 'Put the value in quotes to make it a text.' });
    expect(byCode('posts/dates.md', 'invalid-date')).toMatchObject({ found: 'the text "2026-13-45 09:00"' });
    expect(byCode('posts/past.md', 'scheduled-at-past')).toMatchObject({ message: 'scheduledAt Sun 31 May 2026, 09:00 (+02:00) is in the past', expected: 'a time after Mon 1 Jun 2026, 02:00 (+02:00)' });
    for (const diagnostic of diagnostics) expect(diagnostic.severity).toBe('error');
  });

  it('reports DST gaps as errors and overlaps as warnings (Europe/Berlin)', async () => {
    const { posts, diagnostics } = await project({
      'posts/gap.md': '---\nscheduledAt: 2026-03-29 02:30\n---\nText',
      'posts/overlap.md': `---\nscheduledAt: 2026-10-25 02:30\ntargets: [${PHOTO}]\n---\nText`,
    });
    expect(diagnostics).toMatchObject([
      { severity: 'error', code: 'scheduled-at-nonexistent', file: 'posts/gap.md', line: 2, column: 14, hint: expect.stringContaining('it would be Sun 29 Mar 2026, 03:30 (+02:00)') },
      { severity: 'warning', code: 'scheduled-at-ambiguous', file: 'posts/overlap.md', line: 2, hint: 'Add an offset to choose: +02:00 or +01:00.' },
    ]);
    expect(posts.map((p) => [p.key, p.shape.scheduledAt])).toEqual([['overlap', '2026-10-25T00:30:00.000Z']]);
  });

  it('lets the caller accept a past time it already applied', async () => {
    const root = await testdir({ 'posts/old.md': `---\nscheduledAt: 2026-05-01T10:00:00Z\ntargets: [${PHOTO}]\n---\nPublished already.` });
    const config = { root, contentDir: join(root, 'posts'), timezone: 'UTC', accounts: {} };
    const seen: unknown[] = [];
    const { posts, diagnostics } = await readContent({
      config,
      now: NOW,
      media: fakeMedia(),
      acceptPastSchedule: (post) => (seen.push(post), true),
    });
    expect(diagnostics).toEqual([]);
    expect(seen).toEqual([{ key: 'old', scheduledAt: '2026-05-01T10:00:00.000Z' }]);
    expect(posts[0]!.shape.scheduledAt).toBe('2026-05-01T10:00:00.000Z');
  });

  it('reports a key used by two files on both files', async () => {
    const { posts, diagnostics } = await project({
      'posts/one.md': '---\nid: launch\n---\nOne',
      'posts/two.md': '---\nid: launch\n---\nTwo',
      'posts/launch.md': 'Three: its path key is also launch',
      'posts/other.md': 'Fine',
    });
    expect(posts.map((p) => p.key)).toEqual(['other']);
    expect(diagnostics.map((d) => [d.file, d.code, d.line])).toEqual([
      ['posts/launch.md', 'duplicate-key', undefined],
      ['posts/one.md', 'duplicate-key', 2],
      ['posts/two.md', 'duplicate-key', 2],
    ]);
    expect(diagnostics[1]!.message).toBe('the post key `launch` is also used by `posts/launch.md`, `posts/two.md`');
  });

  it('enforces the API limits on text, targets and media', async () => {
    const targets = Array.from({ length: 21 }, (_, i) => `  - 00000000-0000-4000-8000-${String(i).padStart(12, '0')}`).join('\n');
    const media = Array.from({ length: 11 }, () => '  - m.png').join('\n');
    const { diagnostics } = await project({
      'posts/long.md': `---\ntargets: [brand-photo]\n---\n\n${'é'.repeat(10_001)}`,
      'posts/emoji.md': `${'😀'.repeat(10_000)}`,
      'posts/many.md': `---\ntargets:\n${targets}\nmedia:\n${media}\n---\nText`,
      'posts/override.md': `---\ntargets:\n  - account: brand-photo\n    content: "${'x'.repeat(10_001)}"\n---\nText`,
      'posts/m.png': 'png',
    });
    expect(diagnostics.map((d) => `${d.file}:${d.line} ${d.code} ${d.found}`)).toEqual([
      'posts/long.md:5 content-too-long 10001 characters',
      'posts/many.md:3 too-many-targets 21',
      'posts/many.md:25 too-many-media 11',
      'posts/override.md:4 content-too-long 10001 characters',
    ]);
  });

  it('refuses files over 1 MiB, and symlinked post files that lead outside the project', async () => {
    const outside = await testdir({ 'secret.md': 'not for posting' });
    const root = await testdir({ 'posts/huge.md': Buffer.alloc(5 * 1024 * 1024, 'a') });
    await symlink(join(outside, 'secret.md'), join(root, 'posts/linked.md'));
    const config = { root, contentDir: join(root, 'posts'), timezone: 'UTC', accounts: {} };
    const { posts, diagnostics } = await readContent({ config, now: NOW, media: fakeMedia() });
    expect(posts).toEqual([]);
    expect(diagnostics).toMatchObject([
      { code: 'file-too-large', file: 'posts/huge.md', found: '5.0 MiB', expected: 'at most 1 MiB' },
      { code: 'file-outside-project', file: 'posts/linked.md' },
    ]);
  });

  it('reports a missing content folder instead of reading it as "no posts"', async () => {
    const { posts, diagnostics } = await project({ 'postz/a.md': 'x' });
    expect(posts).toEqual([]);
    expect(diagnostics).toMatchObject([{ code: 'content-dir-missing', file: 'posts' }]);
  });
});
