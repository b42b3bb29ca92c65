import { describe, expect, it } from 'vitest';
import { builtInValues, renderTemplate, verbatimTextLocator, type TemplateContext } from '../../src/templates/index.js';

const builtIns = builtInValues({ key: 'launch', fileInContent: 'launch.md', scheduledAt: null, timezone: 'UTC' });

/** Body text starting at line 5, column 1 of posts/launch.md; snippets from `files`. */
function render(text: string, files: Record<string, string>, extra: Partial<TemplateContext> = {}) {
  const read: string[] = [];
  const readSnippet = (path: string) => {
    read.push(path);
    return files[path];
  };
  const result = renderTemplate(text, { file: 'posts/launch.md', vars: {}, hashtags: {}, builtIns, snippetsFolder: 'snippets', readSnippet, locate: verbatimTextLocator(text, { line: 5, column: 1 }), ...extra });
  return { ...result, read };
}

describe('where snippets may come from', () => {
  it('refuses hidden paths and paths outside the snippets folder without reading them, at the placeholder', () => {
    const files = { '.git/config': 'token=ghs_SECRET', '.env': 'KEY=1', 'snippets/.env': 'KEY=2', 'posts/other.md': 'a post', 'snippets/ok.md': 'fine' };
    const result = render('{{> .git/config }}\n{{> .env }} {{> snippets/.env }}\n{{> posts/other.md }} {{> ../outside }} {{> snippets/ok.md }}', files);
    expect(result.diagnostics.map((d) => [d.code, d.file, d.line, d.column])).toEqual([
      ['snippet-hidden-path', 'posts/launch.md', 5, 1],
      ['snippet-hidden-path', 'posts/launch.md', 6, 1],
      ['snippet-hidden-path', 'posts/launch.md', 6, 13],
      ['snippet-outside-folder', 'posts/launch.md', 7, 1],
      ['snippet-outside-project', 'posts/launch.md', 7, 23],
    ]);
    expect(result.read).toEqual(['snippets/ok.md']);
    expect(result.text).not.toContain('SECRET');
    const [hidden, , , outside] = result.diagnostics;
    expect(hidden!.message).toBe('snippet `.git/config` is refused: a path with a part starting with `.` (such as `.git`, `.postsync`, `.env`) is never a snippet');
    expect(hidden!.expected).toBe('a file inside the snippets folder `snippets/`');
    expect(outside!.message).toBe('snippet `posts/other.md` is refused: it is not inside the snippets folder `snippets/`');
    expect(outside!.hint).toBe('Move the text into `snippets/`, or set `snippets:` in postsync.yaml to the folder that holds your snippets.');
  });

  it('takes its folder from the context', () => {
    const result = render('{{> texts/sig.md }} {{> snippets/sig.md }}', { 'texts/sig.md': 'T', 'snippets/sig.md': 'S' }, { snippetsFolder: 'texts' });
    expect(result.text).toBe('T {{> snippets/sig.md }}');
    expect(result.diagnostics).toMatchObject([{ code: 'snippet-outside-folder', message: 'snippet `snippets/sig.md` is refused: it is not inside the snippets folder `texts/`' }]);
  });

  it('reports what the reader refuses (a symlink out, an ignored file) at the placeholder', () => {
    const readSnippet = (path: string) => (path === 'snippets/link.md' ? { code: 'snippet-outside-folder' as const, why: 'it is a symlink that leads outside the snippets folder `snippets/`' } : undefined);
    const result = render('x\n  {{> snippets/link.md }}', {}, { readSnippet });
    expect(result.diagnostics).toMatchObject([{ code: 'snippet-outside-folder', line: 6, column: 3, message: 'snippet `snippets/link.md` is refused: it is a symlink that leads outside the snippets folder `snippets/`' }]);
  });
});

describe('how much snippets may expand', () => {
  it('refuses an exponential fan-out at the post placeholder that starts it, quickly', () => {
    // Seven levels of 250 includes each (about 36 KB of files), within the depth: 250^7 includes if nothing stopped it.
    const files: Record<string, string> = {};
    for (let level = 0; level < 7; level++) files[`snippets/f${level}.md`] = `{{> snippets/f${level + 1}.md }} `.repeat(250);
    files['snippets/f7.md'] = 'boom';
    expect(Object.values(files).join('').length).toBeGreaterThan(36_000);
    const result = render('Intro\n  {{> snippets/f0.md }}', files);
    expect(result.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'snippet-too-many',
        message: 'the text includes more than 1000 snippets',
        file: 'posts/launch.md',
        line: 6,
        column: 3,
        found: '`{{> snippets/f0.md }}`',
        hint: 'Snippets that include other snippets many times multiply: include fewer.',
      },
    ]);
  });

  it('refuses a text that grows past 1 MiB, from snippets or vars', () => {
    const half = 'x'.repeat(600 * 1024);
    const bySnippets = render('{{> snippets/big.md }}\n{{> snippets/big.md }}', { 'snippets/big.md': half });
    expect(bySnippets.diagnostics).toMatchObject([{ code: 'template-too-large', line: 6, column: 1, message: 'the text is longer than 1048576 characters once its snippets and vars are filled in' }]);
    const byVars = render('{{ big }} {{ big }}', {}, { vars: { big: half } });
    expect(byVars.diagnostics).toMatchObject([{ code: 'template-too-large', line: 5, column: 11 }]);
  });

  it('lets a snippet be included many times below the limits', () => {
    const result = render('{{> snippets/a.md }}', { 'snippets/a.md': '{{> snippets/b.md }}'.repeat(30), 'snippets/b.md': 'b'.repeat(20) + '{{> snippets/c.md }}'.repeat(30), 'snippets/c.md': 'c' });
    expect(result.diagnostics).toEqual([]);
    expect(result.text.length).toBe(30 * 50);
  });
});
