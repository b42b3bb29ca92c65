import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReadContentOptions } from '../../src/content/read-file.js';
import { testdir } from '../helpers/testdir.js';
import { freshRead, memoRun, settle } from './memo-runs.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const PHOTO = '6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01';

const FILES = {
  'posts/plain.md': 'Just text',
  'posts/scheduled.md': `---\nscheduledAt: 2026-07-01 09:00\ntargets: [photo]\nmedia:\n  - media/pic.png\n  - { path: media/pic.png, alt: twice }\n---\n\nText with media`,
  'posts/options.md': `---\nid: custom-key\ntargets:\n  - account: photo\n    content: Override\n    options: { shareToFeed: true }\n---\nBody`,
  'posts/ambiguous.md': '---\nscheduledAt: 2026-10-25 02:30\ntargets: [photo]\n---\nA warning, not an error',
  'posts/broken.md': '---\ntargets: [nobody]\nfoo: 1\n---\nErrors are never kept',
  'media/pic.png': 'png bytes',
};

const settleAll = (root: string, ...paths: string[]) => settle(root, paths.length > 0 ? paths : Object.keys(FILES));

const configOf = (root: string, timezone = 'Europe/Berlin') => ({ root, contentDir: join(root, 'posts'), timezone, accounts: { photo: PHOTO } });

/** A run as `plan` makes it: the memo is loaded from `.postsync/cache` and saved at the end. */
const run = (root: string, overrides: Partial<ReadContentOptions> & { timezone?: string } = {}) => {
  const { timezone, ...options } = overrides;
  return memoRun({ now: NOW, ...options, config: configOf(root, timezone) });
};

const fresh = (root: string, overrides: Partial<ReadContentOptions> = {}) => freshRead({ now: NOW, ...overrides, config: configOf(root) });

describe('reading post files through the reading memo', () => {
  it('gives exactly what a fresh read gives, without reading unchanged files or hashing unchanged media', async () => {
    const root = await testdir(FILES);
    await settleAll(root);
    const cold = await run(root);
    const warm = await run(root);
    const expected = await fresh(root);
    expect(cold.unread).toEqual([]);
    expect(cold.remembered.sort()).toEqual(['posts/ambiguous.md', 'posts/options.md', 'posts/plain.md', 'posts/scheduled.md']);
    expect(cold.posts).toEqual(expected.posts);
    expect(warm.unread.sort()).toEqual(['posts/ambiguous.md', 'posts/options.md', 'posts/plain.md', 'posts/scheduled.md']);
    expect(warm.posts).toEqual(expected.posts);
    expect(warm.remembered).toEqual([]);
    expect(warm.probed).toBe(0);
    for (const result of [cold, warm]) expect(result.diagnostics).toEqual(expected.diagnostics);
    expect(warm.diagnostics.map((d) => `${d.file} ${d.code}`)).toEqual(expect.arrayContaining(['posts/ambiguous.md scheduled-at-ambiguous', 'posts/broken.md unknown-field']));
  });

  it('reads a file afresh when its stamp says it changed, also when size and mtime are the same', async () => {
    const root = await testdir(FILES);
    await settleAll(root);
    await run(root);
    await writeFile(join(root, 'posts/plain.md'), 'Just TEXT');
    await settleAll(root, 'posts/plain.md');
    const warm = await run(root);
    expect(warm.unread).not.toContain('posts/plain.md');
    expect(warm.posts.find((post) => post.key === 'plain')!.shape.content).toBe('Just TEXT');
  });

  it('never trusts the stamp of a file changed just before it was read', async () => {
    const root = await testdir(FILES);
    await run(root);
    const again = await run(root);
    expect(again.unread).toEqual([]);
    expect(again.posts.map((post) => post.key).sort()).toEqual(['ambiguous', 'custom-key', 'plain', 'scheduled']);
  });

  it('checks the clock on every run: an unchanged post scheduled in the past is an error unless the post is owned', async () => {
    const root = await testdir(FILES);
    await settleAll(root);
    await run(root);
    const later = new Date('2026-08-01T00:00:00Z');
    const late = await run(root, { now: later });
    expect(late.posts.map((post) => post.key)).not.toContain('scheduled');
    expect(late.diagnostics.filter((d) => d.file === 'posts/scheduled.md').map((d) => [d.code, d.line, d.column])).toEqual([['scheduled-at-past', 2, 14]]);
    const owned = await run(root, { now: later, acceptPastSchedule: ({ key }) => key === 'scheduled' });
    expect(owned.posts.map((post) => post.key)).toContain('scheduled');
    expect(owned.unread).toContain('posts/scheduled.md');
  });

  it('resolves media paths on every run: a deleted file is reported where the post names it, a changed one hashed again', async () => {
    const root = await testdir(FILES);
    await settleAll(root);
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

  it('does not reuse what was found out under another timezone', async () => {
    const root = await testdir(FILES);
    await settleAll(root);
    await run(root);
    const utc = await run(root, { timezone: 'UTC' });
    expect(utc.unread).toEqual([]);
    expect(utc.posts.find((post) => post.key === 'scheduled')!.shape.scheduledAt).toBe('2026-07-01T09:00:00.000Z');
  });
});
