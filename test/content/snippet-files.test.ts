import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readContent } from '../../src/content/read-content.js';
import type { ContentConfig } from '../../src/content/read-file.js';
import { git } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';
import { fakeMedia } from './fake-probe.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const TOKEN = 'ghs_CHECKOUT-TOKEN-0123456789';

const read = (root: string, config: Partial<ContentConfig> = {}) => readContent({ config: { root, contentDir: join(root, 'posts'), timezone: 'UTC', accounts: {}, ...config }, now: NOW, media: fakeMedia() });

/** A draft post whose body's second line (line 4 of the file) is `include`. */
const includes = (include: string) => `---\ntargets: []\n---\nHello\n${include}\n`;

describe('snippet files in content reading', () => {
  it('refuses `.git/config`, `.env`, `../outside` and files outside the snippets folder, at the line and column of the include', async () => {
    const outside = await testdir({ 'outside.md': TOKEN });
    const root = await testdir({
      '.git/config': `[http]\n\textraheader = AUTHORIZATION: basic ${TOKEN}\n`,
      '.env': `TOKEN=${TOKEN}`,
      'notes/secret.md': TOKEN,
      'posts/git.md': includes('  {{> .git/config }}'),
      'posts/env.md': includes('{{> .env }}'),
      'posts/up.md': includes(`{{> ../${outside.split('/').pop()}/outside.md }}`),
      'posts/notes.md': includes('{{> notes/secret.md }}'),
    });
    const { posts, diagnostics } = await read(root);
    expect(posts).toEqual([]);
    expect(diagnostics.map((d) => [d.file, d.code, d.line, d.column])).toEqual([
      ['posts/env.md', 'snippet-hidden-path', 5, 1],
      ['posts/git.md', 'snippet-hidden-path', 5, 3],
      ['posts/notes.md', 'snippet-outside-folder', 5, 1],
      ['posts/up.md', 'snippet-outside-project', 5, 1],
    ]);
    expect(JSON.stringify(diagnostics)).not.toContain(TOKEN);
  });

  it('refuses a symlink in the snippets folder that leads outside it, and reads one that stays inside', async () => {
    const outside = await testdir({ 'token.txt': TOKEN });
    const root = await testdir({ '.git/config': TOKEN, 'snippets/real.md': 'Signed', 'posts/a.md': includes('{{> snippets/out.md }} {{> snippets/git.md }}'), 'posts/b.md': includes('{{> snippets/alias.md }}') });
    await symlink(join(outside, 'token.txt'), join(root, 'snippets/out.md'));
    await symlink('../.git/config', join(root, 'snippets/git.md'));
    await symlink('real.md', join(root, 'snippets/alias.md'));
    const { posts, diagnostics } = await read(root);
    expect(diagnostics.map((d) => [d.file, d.code, d.line, d.column, d.message])).toEqual([
      ['posts/a.md', 'snippet-outside-folder', 5, 1, 'snippet `snippets/out.md` is refused: it is a symlink that leads outside the snippets folder `snippets/`'],
      ['posts/a.md', 'snippet-outside-folder', 5, 24, 'snippet `snippets/git.md` is refused: it is a symlink that leads outside the snippets folder `snippets/`'],
    ]);
    expect(posts.map((post) => post.shape.content)).toEqual(['Hello\nSigned']);
  });

  it('refuses a git-ignored snippet, and reads the tracked ones', async () => {
    const root = await testdir({ '.gitignore': 'snippets/local-*.md\n', 'snippets/local-token.md': TOKEN, 'snippets/sig.md': 'Signed', 'posts/a.md': includes('{{> snippets/local-token.md }}'), 'posts/b.md': includes('{{> snippets/sig.md }}') });
    await git(root, 'init', '-q');
    const { posts, diagnostics } = await read(root);
    expect(diagnostics.map((d) => [d.file, d.code, d.line, d.column, d.message])).toEqual([
      ['posts/a.md', 'snippet-ignored', 5, 1, 'snippet `snippets/local-token.md` is refused: git ignores it (a .gitignore or .git/info/exclude rule), so it is not part of the project'],
    ]);
    expect(posts.map((post) => post.shape.content)).toEqual(['Hello\nSigned']);
  });

  it('refuses a snippet file over 1 MiB with its size', async () => {
    const root = await testdir({ 'snippets/huge.md': Buffer.alloc(3 * 1024 * 1024, 'a'), 'posts/a.md': includes('{{> snippets/huge.md }}') });
    const { diagnostics } = await read(root);
    expect(diagnostics).toMatchObject([{ file: 'posts/a.md', code: 'snippet-too-large', line: 5, column: 1, message: 'snippet `snippets/huge.md` is refused: it is 3.0 MiB, and a snippet may be at most 1 MiB' }]);
  });

  it('reads snippets from the folder `snippets:` names', async () => {
    const root = await testdir({ 'texts/sig.md': 'Signed', 'posts/a.md': includes('{{> texts/sig.md }}') });
    const { posts, diagnostics } = await read(root, { snippetsDir: join(root, 'texts') });
    expect(diagnostics).toEqual([]);
    expect(posts.map((post) => post.shape.content)).toEqual(['Hello\nSigned']);
  });
});
