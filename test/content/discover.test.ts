import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverPostFiles } from '../../src/content/discover.js';
import { testdir } from '../helpers/testdir.js';

describe('discoverPostFiles', () => {
  it('lists every .md file below the content folder, project-relative and in code-unit order', async () => {
    const root = await testdir({
      'posts/b.md': '',
      'posts/B.md': '',
      'posts/a/z.md': '',
      'posts/a/deep/er/x.md': '',
      'posts/a-b.md': '',
      'posts/notes.txt': '',
      'posts/.draft.md': '',
      'posts/.git/x.md': '',
      'posts/node_modules/pkg/readme.md': '',
      'outside/o.md': '',
      'elsewhere/e.md': '',
    });
    await symlink(join(root, 'outside/o.md'), join(root, 'posts/linked.md'));
    await symlink(join(root, 'elsewhere'), join(root, 'posts/folder-link'));
    await symlink(join(root, 'missing.md'), join(root, 'posts/dangling.md'));
    expect(await discoverPostFiles({ root, contentDir: join(root, 'posts') })).toEqual(['posts/B.md', 'posts/a-b.md', 'posts/a/deep/er/x.md', 'posts/a/z.md', 'posts/b.md', 'posts/linked.md']);
  });

  it('lists paths from the root itself when the content folder is the project', async () => {
    const root = await testdir({ 'one.md': '', 'sub/two.md': '' });
    await mkdir(join(root, 'empty'));
    expect(await discoverPostFiles({ root, contentDir: root })).toEqual(['one.md', 'sub/two.md']);
  });
  it('leaves out the snippets folder when the content folder holds it (content: .): a snippet is never a post', async () => {
    const root = await testdir({ 'one.md': '', 'snippets/signature.md': '', 'snippets/deep/x.md': '', 'lib/snippets/kept.md': '', 'parts/a.md': '' });
    expect(await discoverPostFiles({ root, contentDir: root })).toEqual(['lib/snippets/kept.md', 'one.md', 'parts/a.md']);
    expect(await discoverPostFiles({ root, contentDir: root, snippetsDir: join(root, 'parts') })).toEqual(['lib/snippets/kept.md', 'one.md', 'snippets/deep/x.md', 'snippets/signature.md']);
    // A folder inside the snippets folder (watch aligns a folder that appeared) holds no post either.
    expect(await discoverPostFiles({ root, contentDir: join(root, 'snippets/deep') })).toEqual([]);
  });
});
