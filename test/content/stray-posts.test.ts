import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { strayPostFiles } from '../../src/content/stray-posts.js';
import { testdir } from '../helpers/testdir.js';

const POST = '---\nscheduledAt: 2026-12-05 10:00\ntargets: [photo]\n---\nSaturday tasting\n';

function placeOf(root: string) {
  return { root, contentDir: join(root, 'posts'), snippetsDir: join(root, 'snippets') };
}

describe('post files outside the content folder', () => {
  it('warns of each Markdown file git lists outside the content folder whose front-matter is a post’s', async () => {
    const root = await testdir({
      'postsync.yaml': 'content: posts\n',
      'posts/in.md': POST,
      'drafts/saturday.md': POST,
      'posts-old/draft.md': '---\ntargets:\n  - photo\n---\nA draft\n',
      'README.md': '# Our calendar\n\nscheduledAt: in the text is no front-matter\n',
      'docs/guide.md': '---\ntitle: A guide\ndate: 2026-01-01\n---\nDocs with front-matter of their own\n',
      'snippets/signature.md': '---\ntargets: [photo]\n---\nnot a post: a snippet\n',
      'clients/acme/postsync.yaml': 'content: posts\n',
      'clients/acme/posts/theirs.md': POST,
      'ignored/secret.md': POST,
      '.gitignore': 'ignored/\n',
    });
    execFileSync('git', ['init', '-q'], { cwd: root });
    execFileSync('git', ['add', 'drafts', 'README.md'], { cwd: root });
    const warnings = await strayPostFiles(placeOf(root));
    expect(warnings.map((d) => [d.file, d.line, d.column, d.severity, d.code])).toEqual([
      ['drafts/saturday.md', 1, 1, 'warning', 'post-outside-content'],
      ['posts-old/draft.md', 1, 1, 'warning', 'post-outside-content'],
    ]);
    expect(warnings[0]!.message).toBe('`drafts/saturday.md` is outside the content folder `posts/`; postsync reads posts only there');
    expect(warnings[0]!.hint).toMatch(/^Move it into `posts\/`/);
  });

  it('asks nothing of a folder that is no git work tree (no scan of the disk)', async () => {
    const root = await testdir({ 'drafts/saturday.md': POST, 'posts/in.md': POST });
    expect(await strayPostFiles(placeOf(root))).toEqual([]);
  });
});
