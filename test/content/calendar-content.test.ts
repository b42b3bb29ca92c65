import { utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunCache } from '../../src/cache/run-cache.js';
import type { HouseRule } from '../../src/config/house-rule-types.js';
import { readContent } from '../../src/content/read-content.js';
import type { ContentConfig, ReadContentOptions } from '../../src/content/read-file.js';
import { MediaMemo } from '../../src/content/media-memo.js';
import { ACCOUNTS, at, PHOTO, rule, SHORT } from '../house-rules/rule-fixtures.js';
import { testdir } from '../helpers/testdir.js';
import { fakeMedia, fakeProbe } from './fake-probe.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const LONG_AGO = new Date('2026-01-01');

function configOf(root: string, policies: Partial<ContentConfig> = {}): ContentConfig {
  return { root, contentDir: join(root, 'posts'), timezone: 'Europe/Berlin', accounts: { photo: PHOTO, short: SHORT }, ...policies };
}

const read = (root: string, policies: Partial<ContentConfig> = {}, options: Partial<ReadContentOptions> = {}) => readContent({ config: configOf(root, policies), now: NOW, media: fakeMedia(), ...options });

const REPEAT = [
  '---',
  'scheduledAt: 2027-01-04 09:00',
  'targets: [photo]',
  'repeat:',
  '  every: 2 weeks',
  '  count: 4',
  '  skip: [2027-02-01]',
  'variants:',
  '  - "Fresh this week: {{ key }}"',
  'occurrences:',
  '  2027-01-18: { scheduledAt: "11:00", content: "Special edition!" }',
  '---',
  'Our single origin of {{ date }}.',
  '',
].join('\n');

describe('repeats in content reading', () => {
  it('makes each occurrence a post of its own, keyed by date, with the texts in turn by place in the series (a skip counts) and its override', async () => {
    const root = await testdir({ 'posts/roast.md': REPEAT });
    const { posts, diagnostics } = await read(root);
    expect(diagnostics).toEqual([]);
    expect(posts.map((post) => [post.key, post.shape.scheduledAt, post.shape.content, post.occurrence])).toEqual([
      ['roast@2027-01-04', at('2027-01-04 09:00'), 'Our single origin of 2027-01-04.', { of: 'roast', date: '2027-01-04' }],
      ['roast@2027-01-18', at('2027-01-18 11:00'), 'Special edition!', { of: 'roast', date: '2027-01-18' }],
      ['roast@2027-02-15', at('2027-02-15 09:00'), 'Fresh this week: roast@2027-02-15', { of: 'roast', date: '2027-02-15' }],
      ['roast@2027-03-01', at('2027-03-01 09:00'), 'Our single origin of 2027-03-01.', { of: 'roast', date: '2027-03-01' }],
    ]);
    expect(new Set(posts.map((post) => post.fingerprint)).size).toBe(4);
    expect(posts[0]!.locations?.schedule).toEqual({ line: 2, column: 14 });
  });

  it('reports a key one occurrence shares with another file', async () => {
    const root = await testdir({ 'posts/roast.md': REPEAT, 'posts/other.md': '---\nid: roast@2027-01-18\n---\nSame key' });
    const { posts, diagnostics } = await read(root);
    expect(posts).toEqual([]);
    expect(diagnostics.map((d) => [d.file, d.code, d.message])).toEqual([
      ['posts/other.md', 'duplicate-key', 'the post key `roast@2027-01-18` is also used by `posts/roast.md`'],
      ['posts/roast.md', 'duplicate-key', 'the post key `roast@2027-01-18` is also used by `posts/other.md`'],
    ]);
  });

  it('checks each occurrence against the clock: one in the past, never applied, is an error at its time', async () => {
    const root = await testdir({ 'posts/roast.md': REPEAT });
    const later = await read(root, {}, { now: new Date('2027-01-10T00:00:00Z'), acceptPastSchedule: () => false });
    expect(later.diagnostics.map((d) => [d.code, d.line, d.column, d.found])).toEqual([['scheduled-at-past', 2, 14, '2027-01-04 09:00']]);
    const owned = await read(root, {}, { now: new Date('2027-01-10T00:00:00Z'), acceptPastSchedule: ({ key }) => key === 'roast@2027-01-04' });
    expect(owned.posts).toHaveLength(4);
  });
});

describe('templates in content reading', () => {
  const policies = { vars: { campaign: { url: 'https://acme.coffee/winter', name: 'Winter blend' } }, hashtags: { coffee: '#coffee #roastery' } };

  it('renders vars, hashtag sets, built-ins and snippets in the body, per-account texts and options', async () => {
    const root = await testdir({
      'snippets/signature.md': 'Cheers, {{ campaign.name }} team\n',
      'posts/2027-01/launch.md': [
        '---',
        'targets:',
        '  - photo',
        '  - account: short',
        '    content: "{{ campaign.name }} for {{ account.alias }}"',
        '    options: { shortBCaption: "{{ file.dir }}: {{ campaign.name }}" }',
        '---',
        'The {{ campaign.name }} is here: {{ campaign.url }} {{ hashtags.coffee }}',
        '{{> snippets/signature.md }}',
      ].join('\n'),
    });
    const { posts, diagnostics } = await read(root, policies);
    expect(diagnostics).toEqual([]);
    expect(posts[0]!.shape).toMatchObject({
      content: 'The Winter blend is here: https://acme.coffee/winter #coffee #roastery\nCheers, Winter blend team',
      targets: expect.arrayContaining([{ socialAccountId: SHORT, contentOverride: 'Winter blend for short', options: { shortBCaption: '2027-01: Winter blend' } }]),
    });
  });

  it('reports an unknown variable where it is written, with a suggestion, and keeps the post out', async () => {
    const root = await testdir({ 'posts/a.md': '---\ntargets: [photo]\n---\n\nHello\n  see {{ campain.url }}' });
    const { posts, diagnostics } = await read(root, policies);
    expect(posts).toEqual([]);
    expect(diagnostics).toEqual([expect.objectContaining({ severity: 'error', code: 'unknown-variable', file: 'posts/a.md', line: 6, column: 7, hint: 'did you mean `{{ campaign.url }}`?' })]);
  });

  it('renders a text naming account.* once per account, with the facts the API tells', async () => {
    const root = await testdir({ 'posts/a.md': '---\ntargets: [photo, short]\n---\nBy {{ account.handle }}' });
    const facts = await read(root, {}, { accountFacts: ACCOUNTS });
    expect(facts.posts[0]!.shape.targets.map((t) => t.contentOverride ?? facts.posts[0]!.shape.content)).toEqual(['By @demo.photo', 'By @demo.short']);
    let loads = 0;
    const lazy = await read(root, {}, { accountFacts: async () => (loads++, ACCOUNTS) });
    expect([lazy.posts[0]!.shape, loads]).toEqual([facts.posts[0]!.shape, 1]);
  });

  it('says why a next-slot post cannot use {{ date }}', async () => {
    const root = await testdir({ 'posts/a.md': '---\nscheduledAt: next-slot\ntargets: [photo]\n---\nOn {{ date }}' });
    const { diagnostics } = await read(root);
    expect(diagnostics.map((d) => d.message)).toEqual(['`{{ date }}` has no value here: the time of a `next-slot` post is chosen only when planning']);
  });

  it('notices an edited snippet through the cache: the post is read again with the new text', async () => {
    const root = await testdir({ 'snippets/sig.md': 'Old signature', 'posts/a.md': 'Text\n{{> snippets/sig.md }}' });
    for (const path of ['snippets/sig.md', 'posts/a.md']) await utimes(join(root, path), LONG_AGO, LONG_AGO);
    const run = async () => {
      const kept = RunCache.open(root, { enabled: true, build: 'test' });
      const config = configOf(root);
      const result = await readContent({ config, now: NOW, media: new MediaMemo(fakeProbe(), kept.mediaFacts()), memo: kept.posts(config)! });
      await kept.save();
      return result;
    };
    expect((await run()).posts.map((post) => post.shape.content)).toEqual(['Text\nOld signature']);
    const warm = await run();
    expect(warm.posts.map((post) => post.shape.content)).toEqual(['Text\nOld signature']);
    await writeFile(join(root, 'snippets/sig.md'), 'New signature');
    await utimes(join(root, 'snippets/sig.md'), LONG_AGO, LONG_AGO);
    const edited = await run();
    expect(edited.posts.map((post) => [post.shape.content, post.fingerprint === warm.posts[0]!.fingerprint])).toEqual([['Text\nNew signature', false]]);
  });
});

describe('text and media house rules in content reading', () => {
  const banned = rule<HouseRule>({ kind: 'bannedWords', name: 'wording', words: ['cheap'] } as never);
  const utm = rule<HouseRule>({ kind: 'utm', name: 'links', params: { utm_source: '{platform}', utm_campaign: '{file.dir}' }, append: true, domains: ['acme.coffee'] } as never);

  it('reports a banned word at the word itself, as an error on the file', async () => {
    const root = await testdir({ 'posts/a.md': '---\ntargets: [photo]\n---\nA cheap roast' });
    const { posts, diagnostics } = await read(root, { rules: [banned] });
    expect(posts).toEqual([]);
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'rule-banned-words', rule: 'wording', key: 'a', file: 'posts/a.md', line: 4, column: 3, message: 'rule `wording`: `cheap` is a banned word, in the text for photo' })]);
  });

  it('keeps a warning of a text rule for a file the cache vouches for', async () => {
    const root = await testdir({ 'posts/a.md': '---\ntargets: [photo]\n---\nA cheap roast' });
    await utimes(join(root, 'posts/a.md'), LONG_AGO, LONG_AGO);
    const config = configOf(root, { rules: [{ ...banned, severity: 'warning' }] });
    const run = async () => {
      const kept = RunCache.open(root, { enabled: true, build: 'test' });
      const result = await readContent({ config, now: NOW, media: fakeMedia(), memo: kept.posts(config)! });
      await kept.save();
      return result;
    };
    const cold = await run();
    const warm = await run();
    expect(warm.posts).toEqual(cold.posts);
    expect(warm.diagnostics).toEqual(cold.diagnostics);
    expect(warm.diagnostics.map((d) => [d.severity, d.code])).toEqual([['warning', 'rule-banned-words']]);
  });

  it('appends UTM parameters into the text it sends, per account where the values differ', async () => {
    const root = await testdir({ 'posts/2027-01/a.md': '---\ntargets: [photo, short]\n---\nSee https://acme.coffee/winter and https://other.example/x' });
    const { posts, diagnostics } = await read(root, { rules: [utm] }, { accountFacts: ACCOUNTS });
    expect(diagnostics).toEqual([]);
    const texts = posts[0]!.shape.targets.map((t) => t.contentOverride ?? posts[0]!.shape.content);
    expect(texts).toEqual([
      'See https://acme.coffee/winter?utm_source=photoC&utm_campaign=2027-01 and https://other.example/x',
      'See https://acme.coffee/winter?utm_source=shortB&utm_campaign=2027-01 and https://other.example/x',
    ]);
  });

  it('keeps a next-slot post for planning: no time yet, where it is written', async () => {
    const root = await testdir({ 'posts/a.md': '---\nscheduledAt: next-slot\ntargets: [photo]\n---\nText' });
    const { posts } = await read(root);
    expect(posts.map((post) => [post.shape.scheduledAt, post.slot])).toEqual([[null, { at: { line: 2, column: 14 } }]]);
  });
});
