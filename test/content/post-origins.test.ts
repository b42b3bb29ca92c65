import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_SOURCES, postOrigins, sourcesOfField } from '../../src/content/origins.js';
import { readContent } from '../../src/content/read-content.js';
import { shapeHash } from '../../src/content/shape-hash.js';
import { fieldOrigins } from '../../src/plan/field-origins.js';
import { PHOTO, SHORT } from '../house-rules/rule-fixtures.js';
import { testdir } from '../helpers/testdir.js';
import { fakeMedia } from './fake-probe.js';

const NOW = new Date('2026-06-01T00:00:00Z');

const read = (root: string) =>
  readContent({
    config: { root, contentDir: join(root, 'posts'), timezone: 'UTC', accounts: { photo: PHOTO, short: SHORT }, vars: { campaign: { name: 'Solstice' } }, hashtags: { coffee: '#coffee' } },
    now: NOW,
    media: fakeMedia(),
  });

describe('the sources of a desired post', () => {
  it("names each field's sources: the body's, an account's own text's, its options', and none for what the file alone makes", async () => {
    const root = await testdir({
      'snippets/title.md': 'Solstice roast\n',
      'posts/launch.md': [
        '---',
        'scheduledAt: 2026-12-21 09:00',
        'targets:',
        '  - account: photo',
        '  - account: short',
        '    content: "{{ campaign.name }} is here"',
        '    options: { shortBCaption: "{{> snippets/title.md }}" }',
        '---',
        'New beans {{ hashtags.coffee }}',
        '',
      ].join('\n'),
    });
    const { posts, diagnostics } = await read(root);
    expect(diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)).toEqual([]);
    const [post] = posts;
    expect(post!.origins!.fields).toEqual({
      content: ['file', 'hashtags:coffee'],
      [`targets[${SHORT}].contentOverride`]: ['file', 'var:campaign.name'],
      [`targets[${SHORT}].options`]: ['file', 'snippet:snippets/title.md'],
    });
    expect(Object.keys(post!.origins!.digests)).toEqual(['file', 'hashtags:coffee', 'snippet:snippets/title.md', 'var:campaign.name']);
    expect(sourcesOfField(post!.origins!, `targets[${SHORT}].options.shortBCaption`)).toEqual(['file', 'snippet:snippets/title.md']);
    expect(sourcesOfField(post!.origins!, 'scheduledAt')).toEqual(['file']);
    // The sources are beside the shape, never in its hash.
    expect(post!.shapeHash).toBe(shapeHash(post!.shape));
  });

  it(`keeps at most ${MAX_SOURCES} sources, the first in id order and the file always`, () => {
    const names = Array.from({ length: 40 }, (_, index) => `var:v${String(index).padStart(2, '0')}`);
    const vars = Object.fromEntries(names.map((name) => [name.slice(4), 'x']));
    const origins = postOrigins({ content: ['file', ...names] }, { file: 'bytes', snippets: [], vars, hashtags: {}, rules: [], frontMatter: {} });
    expect(Object.keys(origins.digests)).toHaveLength(MAX_SOURCES);
    expect(origins.digests.file).toBeDefined();
    expect(origins.fields.content).toEqual(['file', ...names.slice(0, MAX_SOURCES - 1)]);
  });
});

describe('fieldOrigins', () => {
  const origins = postOrigins({ content: ['file', 'snippet:snippets/a.md'] }, { file: 'bytes', snippets: [{ path: 'snippets/a.md', digest: 'A' }], vars: {}, hashtags: {}, rules: [], frontMatter: {} });
  const post = { file: 'posts/p.md', origins };
  const content = [{ field: 'content', before: 'a', after: 'b' }];
  const scheduledAt = [{ field: 'scheduledAt', before: null, after: '2027-01-01T00:00:00.000Z' }];

  it('claims nothing for a record that keeps no sources', () => {
    expect(fieldOrigins(content, post, {})).toBeUndefined();
  });

  it('names no source of a field none of whose sources changed (postsync.yaml moved a time)', () => {
    expect(fieldOrigins(scheduledAt, post, { sources: origins.digests })).toEqual([]);
  });

  it('takes a source the record does not know as changed: a snippet the file now includes', () => {
    expect(fieldOrigins(content, post, { sources: { file: 'old' } })).toEqual([
      { field: 'content', source: { kind: 'file', path: 'posts/p.md' } },
      { field: 'content', source: { kind: 'snippet', path: 'snippets/a.md' } },
    ]);
  });
});
