import { describe, expect, it } from 'vitest';
import type { ImageAltRule, UtmRule, WordsRule } from '../../src/config/house-rule-types.js';
import { checkHouseRules, findLinks, wordPattern, type HouseRulesInput } from '../../src/house-rules/index.js';
import { verbatimTextLocator } from '../../src/templates/index.js';
import { ACCOUNTS, PHOTO, post, rule, SHORT, target, VIDEO, ZONE } from './rule-fixtures.js';

function check(input: Omit<HouseRulesInput, 'timezone' | 'accounts'>) {
  return checkHouseRules({ timezone: ZONE, accounts: ACCOUNTS, ...input });
}

/** A target whose text is the body of its file from line 8 on. */
function bodyTarget(accountId: string, text: string, options: Record<string, unknown> = {}) {
  return { ...target(accountId, text, options), locate: verbatimTextLocator(text, { line: 8, column: 1 }) };
}

describe('banned and required words', () => {
  const banned = rule<WordsRule>({ kind: 'bannedWords', name: 'banned', words: ['cheap', 'free shipping'] });
  const adLabel = rule<WordsRule>({ kind: 'requiredWords', name: 'ad-label', words: ['#ad'], scope: { accounts: null, platforms: null, when: { shortBBrandContent: true } } });

  it('finds whole words and phrases in any case, and points at the first one', () => {
    const text = 'Fresh beans.\nNot CHEAP, and Free\n  Shipping! cheapest? cheap.';
    const result = check({ posts: [post('a', '2027-01-04 09:00', { targets: [bodyTarget(PHOTO, text), bodyTarget(VIDEO, text)] })], rules: [banned] });
    expect(result.violations).toEqual([
      {
        severity: 'error',
        code: 'rule-banned-words',
        rule: 'banned',
        key: 'a',
        file: 'posts/a.md',
        line: 9,
        column: 5,
        message: 'rule `banned`: `cheap` is a banned word, in the text for brand-photo, brand-video',
        expected: 'no word `cheap`',
        found: '`CHEAP` (2 times)',
        hint: 'Reword the text without `cheap`.',
      },
      expect.objectContaining({ line: 9, column: 16, message: 'rule `banned`: `free shipping` is a banned word, in the text for brand-photo, brand-video', expected: 'no phrase `free shipping`', found: '`Free\n  Shipping`' }),
    ]);
  });

  it('requires a word only where its condition holds, per account text', () => {
    const posts = [
      post('branded', null, { targets: [bodyTarget(SHORT, 'New roast', { shortBBrandContent: true }), bodyTarget(PHOTO, 'New roast')] }),
      post('labelled', null, { targets: [bodyTarget(SHORT, 'New roast #AD', { shortBBrandContent: true })] }),
      post('adventure', null, { targets: [bodyTarget(SHORT, 'A #adventure', { shortBBrandContent: true })] }),
      post('organic', null, { targets: [bodyTarget(SHORT, 'New roast', { shortBBrandContent: false })] }),
    ];
    expect(check({ posts, rules: [adLabel] }).violations.map((v) => [v.key, v.code, v.line, v.accountId, v.message])).toEqual([
      ['adventure', 'rule-required-words', 8, SHORT, 'rule `ad-label`: `#ad` is missing from the text for brand-short (shortBBrandContent is true)'],
      ['branded', 'rule-required-words', 8, SHORT, 'rule `ad-label`: `#ad` is missing from the text for brand-short (shortBBrandContent is true)'],
    ]);
  });

  it('matches on word boundaries only', () => {
    const matches = (word: string, text: string) => wordPattern(word).test(text);
    expect([matches('ad', 'an ad.'), matches('ad', 'adverb'), matches('ad', 'bad'), matches('#ad', '(#ad)'), matches('café', 'CAFÉ time'), matches('free shipping', 'free\tshipping'), matches('a.b', 'axb')]).toEqual([true, false, false, true, true, true, false]);
  });
});

describe('image alt text', () => {
  const alt = rule<ImageAltRule>({ kind: 'imageAlt', name: 'alt' });

  it('reports each image without alt (videos need none), at its media entry', () => {
    const media = [
      { path: 'media/cup.jpg', kind: 'image' as const, at: { line: 6, column: 5 } },
      { path: 'media/bag.png', kind: 'image' as const, alt: '  ', at: { line: 7, column: 5 } },
      { path: 'media/ok.png', kind: 'image' as const, alt: 'A cup of coffee' },
      { path: 'media/clip.mp4', kind: 'video' as const },
    ];
    expect(check({ posts: [post('a', null, { media, targets: [] })], rules: [alt] }).violations).toEqual([
      { severity: 'error', code: 'rule-image-alt', rule: 'alt', key: 'a', file: 'posts/a.md', line: 6, column: 5, message: 'rule `alt`: image `media/cup.jpg` has no alt text', expected: 'an `alt` text describing the image', found: 'no `alt`', hint: 'Write it as `- path: media/cup.jpg` with `alt: <what the image shows>` on the next line.' },
      expect.objectContaining({ line: 7, message: 'rule `alt`: image `media/bag.png` has no alt text', found: 'an empty `alt`' }),
    ]);
    const photoOnly = rule<ImageAltRule>({ kind: 'imageAlt', name: 'alt', scope: { accounts: [PHOTO], platforms: null, when: null } });
    expect(check({ posts: [post('video', null, { media, targets: [target(VIDEO)] })], rules: [photoOnly] }).violations).toEqual([]);
  });
});

describe('UTM parameters', () => {
  const params = { utm_source: '{platform}', utm_campaign: '{file.dir}' };
  const checkOnly = rule<UtmRule>({ kind: 'utm', name: 'utm', params, append: false, domains: ['acme.coffee'] });
  const append = rule<UtmRule>({ ...checkOnly, append: true });
  const text = 'Shop https://acme.coffee/beans (or https://shop.acme.coffee/x?utm_source=photoC&utm_campaign=2027-01).\nElsewhere: https://example.com/y.';
  const winter = (targets: ReturnType<typeof bodyTarget>[]) => post('2027-01/winter', '2027-01-04 09:00', { fileInContent: '2027-01/winter.md', targets });

  it('reports links of the rule\'s domains without the parameters, filled in per platform', () => {
    const result = check({ posts: [winter([bodyTarget(PHOTO, text), bodyTarget(VIDEO, text)])], rules: [checkOnly] });
    expect(result.rewrites).toEqual([]);
    expect(result.violations).toEqual([
      {
        severity: 'error',
        code: 'rule-utm',
        rule: 'utm',
        key: '2027-01/winter',
        file: 'posts/2027-01/winter.md',
        line: 8,
        column: 6,
        accountId: PHOTO,
        message: 'rule `utm`: link `https://acme.coffee/beans` lacks utm_source, utm_campaign (brand-photo)',
        expected: 'utm_source=photoC&utm_campaign=2027-01',
        found: 'no query',
        hint: 'Make the link carry `utm_source=photoC&utm_campaign=2027-01`, or set `append: true` on the rule to have them added when planning.',
      },
      expect.objectContaining({ column: 6, accountId: VIDEO, message: 'rule `utm`: link `https://acme.coffee/beans` lacks utm_source, utm_campaign (brand-video)' }),
      expect.objectContaining({ column: 36, accountId: VIDEO, message: 'rule `utm`: link `https://shop.acme.coffee/x?utm_source=photoC&utm_campaign=2027-01` has other values for utm_source (brand-video)' }),
    ]);
  });

  it('names both the missing parameters and those with other values', () => {
    const result = check({ posts: [winter([bodyTarget(PHOTO, 'https://acme.coffee/z?utm_source=newsletter')])], rules: [checkOnly] });
    expect(result.violations.map((v) => [v.message, v.found, v.hint])).toEqual([
      [
        'rule `utm`: link `https://acme.coffee/z?utm_source=newsletter` lacks utm_campaign and has other values for utm_source (brand-photo)',
        '`?utm_source=newsletter`',
        'Make the link carry `utm_campaign=2027-01&utm_source=photoC`, or set `append: true` on the rule to have them added when planning.',
      ],
    ]);
  });

  it('appends the missing parameters and returns the final text, once: the final text passes', () => {
    const withFragment = 'See https://acme.coffee/beans?ref=1#top and https://acme.coffee/b.';
    const first = check({ posts: [winter([bodyTarget(PHOTO, withFragment, { link: 'https://acme.coffee/' })])], rules: [append] });
    expect(first.violations).toEqual([]);
    expect(first.rewrites).toEqual([
      { key: '2027-01/winter', accountId: PHOTO, rule: append.name, field: 'text', before: withFragment, after: 'See https://acme.coffee/beans?ref=1&utm_source=photoC&utm_campaign=2027-01#top and https://acme.coffee/b?utm_source=photoC&utm_campaign=2027-01.' },
      { key: '2027-01/winter', accountId: PHOTO, rule: append.name, field: 'options.link', before: 'https://acme.coffee/', after: 'https://acme.coffee/?utm_source=photoC&utm_campaign=2027-01' },
    ]);
    const again = check({ posts: [winter([bodyTarget(PHOTO, first.rewrites[0]!.after, { link: first.rewrites[1]!.after })])], rules: [append] });
    expect(again).toEqual({ violations: [], rewrites: [] });
  });

  it('accepts any value for `*`, and says when a value cannot be filled in', () => {
    const anyMedium = rule<UtmRule>({ kind: 'utm', name: 'medium', params: { utm_medium: '*' }, append: true, domains: null });
    const dated = rule<UtmRule>({ kind: 'utm', name: 'dated', params: { utm_content: '{date}' }, append: false, domains: null });
    const posts = [post('draft', null, { targets: [bodyTarget(PHOTO, 'https://a.example/x?utm_medium=social https://a.example/y')] })];
    expect(check({ posts, rules: [anyMedium, dated] }).violations.map((v) => [v.rule, v.message, v.hint])).toEqual([
      ['dated', 'rule `dated`: cannot fill in `utm_content` for brand-photo: `{date}` has no value here: the post has no `scheduledAt` (a draft)', 'Use placeholders this post has values for, or give the rule `accounts` or `platforms` to skip it.'],
      ['medium', 'rule `medium`: link `https://a.example/y` lacks utm_medium (brand-photo)', 'Add them to the link by hand: the rule accepts any value, so it cannot choose one.'],
    ]);
  });

  it('finds links without trailing punctuation or an unmatched parenthesis', () => {
    expect(findLinks('(see https://a.example/x_(y)), https://b.example/?q=1! "https://c.example"').map((l) => l.link)).toEqual(['https://a.example/x_(y)', 'https://b.example/?q=1', 'https://c.example']);
  });
});
