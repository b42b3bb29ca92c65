import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readContent } from '../../src/content/read-content.js';
import { git } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';
import { fakeMedia } from '../content/fake-probe.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const TOKEN = 'ghs_CHECKOUT-TOKEN-0123456789';

const read = (root: string) => readContent({ config: { root, contentDir: join(root, 'posts'), timezone: 'UTC', accounts: {} }, now: NOW, media: fakeMedia() });

describe('attack: snippets and post files', () => {
  it('a snippets folder committed as a symlink to .git never includes .git/config (the checkout token)', async () => {
    const root = await testdir({ 'posts/a.md': `---\ntargets: []\n---\nHello\n{{> snippets/config }}\n` });
    await git(root, 'init', '-q');
    await git(root, 'config', 'http.extraheader', `AUTHORIZATION: basic ${TOKEN}`);
    await symlink('.git', join(root, 'snippets'));
    const { posts, diagnostics } = await read(root);
    expect(JSON.stringify(posts)).not.toContain(TOKEN);
    expect(diagnostics.map((d) => d.code)).toEqual(['snippet-hidden-path']);
  });

  it('a post file committed as a symlink to .git/config (inside the project, but hidden) is not read as a post', async () => {
    const root = await testdir({ 'posts/keep.md': `---\ntargets: []\n---\nHello\n` });
    await git(root, 'init', '-q');
    await git(root, 'config', 'http.extraheader', `AUTHORIZATION: basic ${TOKEN}`);
    await symlink('../.git/config', join(root, 'posts/leak.md'));
    const { posts } = await read(root);
    expect(JSON.stringify(posts)).not.toContain(TOKEN);
  });
});
