import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileLookups } from '../../src/content/file-lookups.js';
import { readContent } from '../../src/content/read-content.js';
import { readContentFile } from '../../src/content/read-file.js';
import { testdir } from '../helpers/testdir.js';
import { fakeMedia } from './fake-probe.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const configFor = (root: string, contentDir = join(root, 'posts')) => ({ root, contentDir, timezone: 'UTC', accounts: {} });

describe('reading post files through FileLookups', () => {
  it('reads symlinks that stay inside the project and files in symlinked folders inside it', async () => {
    const root = await testdir({ 'drafts/real.md': 'Linked text\n', 'elsewhere/inner.md': 'Inner text\n', 'posts/plain.md': 'Plain text\n' });
    await symlink(join(root, 'drafts/real.md'), join(root, 'posts/linked.md'));
    await symlink(join(root, 'elsewhere'), join(root, 'linked-folder'));
    const { posts, diagnostics } = await readContent({ config: configFor(root), now: NOW, media: fakeMedia() });
    expect(diagnostics).toEqual([]);
    expect(posts.map((post) => [post.key, post.shape.content])).toEqual([
      ['linked', 'Linked text'],
      ['plain', 'Plain text'],
    ]);
    const inFolder = await readContentFile('linked-folder/inner.md', { config: configFor(root, root), now: NOW, media: fakeMedia() });
    expect(inFolder.diagnostics).toEqual([]);
    expect(inFolder.posts[0]?.shape.content).toBe('Inner text');
  });

  it('refuses a plain file reached through a symlinked folder that leads outside, and reports a missing file', async () => {
    const outside = await testdir({ 'secret.md': 'not for posting\n' });
    const root = await testdir({ 'posts/ok.md': 'Fine\n' });
    await symlink(outside, join(root, 'posts/escape'));
    const options = { config: configFor(root), now: NOW, media: fakeMedia() };
    expect((await readContentFile('posts/escape/secret.md', options)).diagnostics).toMatchObject([{ code: 'file-outside-project', file: 'posts/escape/secret.md' }]);
    expect((await readContentFile('posts/gone.md', options)).diagnostics).toMatchObject([{ code: 'file-unreadable', message: expect.stringContaining('ENOENT') }]);
  });

  it('answers each real path and media stat once per read', async () => {
    const root = await testdir({ 'media/a.png': 'png' });
    await mkdir(join(root, 'posts'));
    const lookups = new FileLookups();
    expect(lookups.realpath(join(root, 'posts'))).toBe(lookups.realpath(join(root, 'posts')));
    expect(lookups.realpath(root)).toBe(lookups.realpath(root));
    // A path that cannot be resolved throws the same error each time it is asked for.
    const missing = join(root, 'gone');
    expect(() => lookups.realpath(missing)).toThrow(/ENOENT/);
    expect(() => lookups.realpath(missing)).toThrow(/ENOENT/);
    expect(await lookups.stat(join(root, 'media/a.png'))).toMatchObject({ size: 3 });
    expect(await lookups.stat(join(root, 'media/missing.png'))).toBeUndefined();
  });
});
