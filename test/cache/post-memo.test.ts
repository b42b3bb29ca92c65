import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImageAltRule } from '../../src/config/house-rule-types.js';
import { CacheSection, type SectionIdentity } from '../../src/cache/cache-section.js';
import type { PostEntry } from '../../src/cache/post-memo.js';
import { postRowsCodec } from '../../src/cache/post-rows.js';
import { CACHE_DIR } from '../../src/cache/run-cache.js';
import type { ContentConfig } from '../../src/content/read-file.js';
import { testdir } from '../helpers/testdir.js';
import { rule, PHOTO, SHORT, VIDEO } from '../house-rules/rule-fixtures.js';
import { freshRead, memoRun, settle } from '../content/memo-runs.js';

const NOW = new Date('2026-06-01T00:00:00Z');

/** The benchmark's four kinds of post (bench/lib/project.mjs), and posts using every part a reading has. */
const FILES = {
  'posts/batch-000/post-00000.md': '---\nscheduledAt: 2031-01-01 09:00\ntargets: [brand-photo]\nmedia: [media/cover.png]\n---\nPost 0 (v1): fresh beans, a new roast and a short note about our café.\n',
  'posts/batch-000/post-00001.md': '---\ntargets:\n  - account: brand-video\n    options:\n      vidATitle: "Episode 1"\n      vidATags: [bench, coffee]\nmedia: [media/clip.mp4]\n---\nPost 1 (v1): fresh beans.\n',
  'posts/batch-000/post-00002.md': '---\ntargets:\n  - account: brand-short\n    options: { shortBAllowComment: true }\nmedia: [media/clip.mp4]\n---\nPost 2 (v1): fresh beans.\n',
  'posts/batch-000/post-00003.md': '---\ntargets: []\n---\nPost 3 (v1): a draft.\n',
  'posts/rich.md': [
    '---',
    'id: campaign/launch',
    'scheduledAt: 2026-10-25 02:30',
    'targets:',
    '  - brand-photo',
    '  - account: brand-video',
    '    content: "Watch: {{ campaign.name }} {{> snippets/sig.md }}"',
    '    options: { vidATitle: "Launch", vidATags: [launch] }',
    `  - ${SHORT}`,
    'media:',
    '  - media/cover.png',
    '  - { path: media/cover.png, alt: "A cup of coffee" }',
    '  - path: media/clip.mp4',
    '---',
    '{{ campaign.name }} is here {{ hashtags.coffee }}',
    '',
    '{{> snippets/sig.md }}',
    '',
  ].join('\n'),
  'posts/nested/deep/no-alt.md': '---\ntargets: [brand-photo]\nmedia:\n  - path: media/cover.png\n    alt: "  "\n---\nAn image without alt text: a warning of the house rules\n',
  'snippets/sig.md': 'Signed, the roastery',
  'media/cover.png': 'png bytes',
  'media/clip.mp4': 'mp4 bytes',
};

const configOf = (root: string): ContentConfig => ({
  root,
  contentDir: join(root, 'posts'),
  timezone: 'Europe/Berlin',
  accounts: { 'brand-photo': PHOTO, 'brand-video': VIDEO, 'brand-short': SHORT },
  vars: { campaign: { name: 'Winter Solstice' } },
  hashtags: { coffee: '#coffee #roastery' },
  rules: [rule<ImageAltRule>({ kind: 'imageAlt', name: 'alt', severity: 'warning' })],
});

async function project() {
  const root = await testdir(FILES);
  await settle(root, Object.keys(FILES));
  return root;
}

const postFiles = Object.keys(FILES).filter((path) => path.startsWith('posts/')).sort();

describe('the reading memo in .postsync/cache', () => {
  it('gives, after a save and a load, posts and diagnostics deep-equal to a fresh read, reading no post file', async () => {
    const root = await project();
    const options = { config: configOf(root), now: NOW };
    const cold = await memoRun(options);
    expect(cold.remembered.sort()).toEqual(postFiles);
    const warm = await memoRun(options);
    const expected = await freshRead(options);
    expect(warm.unread.sort()).toEqual(postFiles);
    expect(warm.remembered).toEqual([]);
    expect(warm.probed).toBe(0);
    expect(warm.posts).toEqual(expected.posts);
    expect(warm.diagnostics).toEqual(expected.diagnostics);
    expect(warm.invalid).toEqual(expected.invalid);
    // Key for key in the same order: what is written from a post (JSON, pages) is the same text.
    expect(JSON.stringify(warm.posts)).toBe(JSON.stringify(expected.posts));
    expect(warm.diagnostics.map((d) => `${d.file} ${d.code}`).sort()).toEqual([
      'posts/batch-000/post-00000.md rule-image-alt',
      'posts/nested/deep/no-alt.md rule-image-alt',
      'posts/rich.md rule-image-alt',
      'posts/rich.md scheduled-at-ambiguous',
    ]);
    // What a warm run gives it saves again as it was: a third run is the same.
    const third = await memoRun(options);
    expect(third.unread.sort()).toEqual(postFiles);
    expect(third.posts).toEqual(expected.posts);
  });

  it('keeps what a load can rebuild once: each post file named once (but in its messages), each media file described once', async () => {
    const root = await project();
    const { diagnostics } = await memoRun({ config: configOf(root), now: NOW });
    const text = await readFile(join(root, CACHE_DIR, 'posts.json'), 'latin1');
    const count = (part: string) => text.split(part).length - 1;
    for (const file of postFiles) expect(count(`"${file}"`), file).toBe(1 + diagnostics.filter((d) => d.file === file).length);
    expect(count(join(root, 'media/cover.png'))).toBe(1);
    expect(count(join(root, 'media/clip.mp4'))).toBe(1);
  });

  it('ignores a posts.json of another layout: every file is read again', async () => {
    const root = await project();
    const options = { config: configOf(root), now: NOW };
    await memoRun(options);
    const path = join(root, CACHE_DIR, 'posts.json');
    const file = JSON.parse(await readFile(path, 'latin1')) as { format: number };
    await writeFile(path, JSON.stringify({ ...file, format: file.format - 1 }));
    const again = await memoRun(options);
    expect(again.unread).toEqual([]);
    expect(again.posts).toEqual((await freshRead(options)).posts);
  });

  it('reads a file in full when its row in posts.json is damaged, and the others from the memo', async () => {
    const root = await project();
    const options = { config: configOf(root), now: NOW };
    await memoRun(options);
    const path = join(root, CACHE_DIR, 'posts.json');
    const file = JSON.parse(await readFile(path, 'latin1')) as { entries: { rows: unknown[][] } };
    const damaged = file.entries.rows.find((row) => row[0] === 'posts/rich.md')!;
    damaged[5] = 7;
    // In ASCII, as the cache writes it: a file that is not is ignored whole.
    await writeFile(path, JSON.stringify(file).replace(/[^\x00-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
    const again = await memoRun(options);
    expect(again.unread.sort()).toEqual(postFiles.filter((path) => path !== 'posts/rich.md'));
    expect(again.posts).toEqual((await freshRead(options)).posts);
  });

  it('gives the same reading each time it is asked, also after the entry was dropped in between', async () => {
    const root = await project();
    await memoRun({ config: configOf(root), now: NOW });
    const path = join(root, CACHE_DIR, 'posts.json');
    const { build, context } = JSON.parse(await readFile(path, 'latin1')) as SectionIdentity;
    const section = CacheSection.open<PostEntry>(path, { build, context }, postRowsCodec);
    const first = structuredClone(section.get('posts/rich.md'));
    expect(first?.reading.post.key).toBe('campaign/launch');
    section.delete('posts/rich.md');
    expect(section.get('posts/rich.md')).toEqual(first);
  });
});
