import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtInValues, renderTemplate, renderValues, snippetPath, verbatimTextLocator, type TemplateContext } from '../../src/templates/index.js';

const vars = { campaign: { url: 'https://acme.coffee/winter', name: 'Winter blend' }, shop: 'https://acme.coffee' };
const hashtags = { coffee: '#coffee #roastery' };
const builtIns = builtInValues({
  key: '2027-01/launch',
  fileInContent: '2027-01/launch.md',
  scheduledAt: '2027-01-04T23:30:00.000Z',
  timezone: 'Europe/Berlin',
  account: { alias: 'brand-photo', handle: '@acme', platform: 'photoC' },
});

function context(extra: Partial<TemplateContext> = {}): TemplateContext {
  return { file: 'posts/2027-01/launch.md', vars, hashtags, builtIns, snippetsFolder: 'snippets', locate: verbatimTextLocator('', { line: 5, column: 1 }), ...extra };
}

/** Body text starting at line 5, column 1 of its file. */
function render(text: string, extra: Partial<TemplateContext> = {}) {
  return renderTemplate(text, { ...context(extra), locate: verbatimTextLocator(text, { line: 5, column: 1 }) });
}

describe('renderTemplate', () => {
  it('fills in vars, hashtag sets and the built-ins', () => {
    const result = render('New: {{ campaign.name }} at {{campaign.url}} {{ hashtags.coffee }}\nby {{ account.handle }} on {{ account.platform }}, {{ date }} ({{ file.dir }}/{{ file.name }}, {{ key }})');
    expect(result.text).toBe('New: Winter blend at https://acme.coffee/winter #coffee #roastery\nby @acme on photoC, 2027-01-05 (2027-01/launch, 2027-01/launch)');
    expect(result.diagnostics).toEqual([]);
    expect(result.names).toEqual(['campaign.name', 'campaign.url', 'hashtags.coffee', 'account.handle', 'account.platform', 'date', 'file.dir', 'file.name', 'key']);
  });

  it('reports an unknown variable with did-you-mean and its line and column, and keeps it as written', () => {
    const result = render('Line one\n  see {{ campain.url }} and {{ nothing.like.it }}');
    expect(result.text).toBe('Line one\n  see {{ campain.url }} and {{ nothing.like.it }}');
    expect(result.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'unknown-variable',
        message: 'unknown variable `{{ campain.url }}`',
        file: 'posts/2027-01/launch.md',
        line: 6,
        column: 7,
        expected: expect.stringContaining('a var from `vars:`'),
        found: '`{{ campain.url }}`',
        hint: 'did you mean `{{ campaign.url }}`?',
      },
      expect.objectContaining({ code: 'unknown-variable', line: 6, column: 29, hint: 'Add `nothing.like.it` under `vars:` in postsync.yaml, or write `\\{{` for literal braces.' }),
    ]);
  });

  it('says when a name is a group, when a built-in has no value, and when a placeholder is malformed', () => {
    const draft = builtInValues({ key: 'a', fileInContent: 'a.md', scheduledAt: null, timezone: 'UTC' });
    const result = render('{{ campaign }} {{ date }} {{ account.handle }} {{ two words }} {{ open', { builtIns: draft });
    expect(result.diagnostics.map((d) => [d.code, d.column, d.message])).toEqual([
      ['variable-is-group', 1, '`{{ campaign }}` is a group of vars, not a value'],
      ['variable-without-value', 16, '`{{ date }}` has no value here: the post has no `scheduledAt` (a draft)'],
      ['variable-without-value', 27, '`{{ account.handle }}` has no value here: the text is not for one account here'],
      ['template-malformed', 48, '`{{ two words }}` is not a variable or a snippet'],
      ['template-malformed', 64, '`{{ open` is not closed with `}}`'],
    ]);
    expect(result.diagnostics[0]!.hint).toBe('Name one of its vars, e.g. `{{ campaign.url }}`.');
    expect(builtInValues({ key: 'top', fileInContent: 'top.md', scheduledAt: null, timezone: 'UTC' })['file.dir']).toBe('');
  });

  it('writes `\\{{` as literal braces', () => {
    expect(render('Use \\{{ like this }} and {{ shop }}').text).toBe('Use {{ like this }} and https://acme.coffee');
  });

  it('includes snippets (nested), and reports missing ones, paths outside the project and cycles', () => {
    const files: Record<string, string> = {
      'snippets/signature.md': '— The {{ campaign.name }} team\n{{> snippets/links.md }}\n',
      'snippets/links.md': 'Shop: {{ shop }}\n',
      'snippets/a.md': 'A {{> snippets/b.md }}',
      'snippets/b.md': 'B\n  {{> snippets/./a.md }}',
      'snippets/typo.md': 'x {{ shpo }}',
    };
    const readSnippet = (path: string) => files[path];
    const ok = render('Hello\n\n{{> snippets/signature.md }}', { readSnippet });
    expect(ok.text).toBe('Hello\n\n— The Winter blend team\nShop: https://acme.coffee');
    expect(ok.snippets).toEqual(['snippets/signature.md', 'snippets/links.md']);
    expect(ok.diagnostics).toEqual([]);

    const bad = render('{{> snippets/missing.md }} {{> ../secret.md }} {{> /etc/passwd }} {{> snippets/a.md }} {{> snippets/typo.md }}', { readSnippet });
    expect(bad.diagnostics.map((d) => [d.code, d.file, d.line, d.column])).toEqual([
      ['snippet-not-found', 'posts/2027-01/launch.md', 5, 1],
      ['snippet-outside-project', 'posts/2027-01/launch.md', 5, 28],
      ['snippet-outside-project', 'posts/2027-01/launch.md', 5, 48],
      ['snippet-cycle', 'snippets/b.md', 2, 3],
      ['unknown-variable', 'snippets/typo.md', 1, 3],
    ]);
    expect(bad.diagnostics[3]!.message).toBe('snippet `snippets/a.md` includes itself: `snippets/a.md` → `snippets/b.md` → `snippets/a.md`');
    expect(bad.diagnostics[4]!.hint).toBe('did you mean `{{ shop }}`?');
    expect([snippetPath('snippets/x/../sig.md'), snippetPath('a\\b.md'), snippetPath('./x.md'), snippetPath('x/../../y.md')]).toEqual(['snippets/sig.md', undefined, 'x.md', undefined]);
  });

  it('stops snippets that include each other too deep', () => {
    const chain = (path: string) => (/^snippets\/s(\d+)\.md$/.test(path) ? `{{> snippets/s${Number(path.slice(10, -3)) + 1}.md }}` : undefined);
    expect(render('{{> snippets/s0.md }}', { readSnippet: chain }).diagnostics).toMatchObject([{ code: 'snippet-too-deep', file: 'snippets/s7.md', line: 1, column: 1, message: 'snippets include each other more than 8 deep' }]);
  });

  it('maps offsets of the rendered text back to the source (an inserted value to its `{{`)', () => {
    const source = 'Go {{ shop }} now, cheap!';
    const result = render(source);
    const cheap = result.text.indexOf('cheap');
    expect(source.slice(result.sourceOffset(cheap), result.sourceOffset(cheap) + 5)).toBe('cheap');
    expect(result.sourceOffset(result.text.indexOf('acme'))).toBe(source.indexOf('{{'));
  });

  it('leaves a text without placeholders as it is, offsets included (property)', () => {
    fc.assert(
      fc.property(fc.string().filter((text) => !text.includes('{{')), (text) => {
        const result = render(text);
        expect(result.text).toBe(text);
        expect(result.diagnostics).toEqual([]);
        for (let offset = 0; offset < text.length; offset++) expect(result.sourceOffset(offset)).toBe(offset);
      }),
    );
  });

  it('puts any var value in place of its name (property)', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/).filter((n) => !['file', 'key', 'date', 'account', 'hashtags'].includes(n));
    fc.assert(
      fc.property(name, fc.string(), fc.string().filter((text) => !/[{}\\]/.test(text)), (key, value, around) => {
        const result = render(`${around}{{ ${key} }}${around}`, { vars: { [key]: value } });
        expect(result.text).toBe(`${around}${value}${around}`);
        expect(result.diagnostics).toEqual([]);
      }),
    );
  });
});

describe('renderValues', () => {
  it('renders every text inside option values and points problems at their front-matter path', () => {
    const where = (path: readonly (string | number)[]) => ({ line: 10 + path.length, column: 7 });
    const result = renderValues({ vidATitle: '{{ campaign.name }}', vidATags: ['{{ file.dir }}', '{{ nope }}'], vidAMadeForKids: false }, context(), where);
    expect(result.value).toEqual({ vidATitle: 'Winter blend', vidATags: ['2027-01', '{{ nope }}'], vidAMadeForKids: false });
    expect(result.diagnostics).toMatchObject([{ code: 'unknown-variable', line: 12, column: 7 }]);
    expect(result.names).toEqual(['campaign.name', 'file.dir', 'nope']);
  });
});
