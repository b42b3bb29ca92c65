import { describe, expect, it } from 'vitest';
import type { Post } from '../../src/api/types.js';
import type { ImportResult } from '../../src/import/import-posts.js';
import type { Change } from '../../src/plan/types.js';
import { previewText } from '../../src/text/preview.js';
import { changeLines } from '../../cli/views/change-lines.js';
import { colours } from '../../cli/views/style.js';
import { preview } from '../../cli/views/format.js';
import { renderImport } from '../../cli/views/import.js';

/** Previews of post texts (import, plan, watch) are cut between graphemes, never inside one. */
const style = colours(false);
const graphemes = (text: string) => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map((s) => s.segment);
/** A lone surrogate is what prints as `�`. */
const hasLoneSurrogate = (text: string) => /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe('previewText', () => {
  it('keeps a text of at most max graphemes as it is, also when it has more UTF-16 units', () => {
    expect(previewText('short', 10)).toBe('short');
    expect(previewText('👨‍👩‍👧‍👦👨‍👩‍👧‍👦', 2)).toBe('👨‍👩‍👧‍👦👨‍👩‍👧‍👦');
    expect(previewText('abc', 3)).toBe('abc');
  });

  it('cuts to max graphemes, the last one an ellipsis', () => {
    expect(previewText('abcdef', 4)).toBe('abc…');
    expect(graphemes(previewText('x'.repeat(100), 40))).toHaveLength(40);
  });

  it.each([
    ['a flag', 'Our new 🇪🇺 EU-funded project', 10, 'Our new 🇪🇺…'],
    ['a flag just after the cut', 'Our new 🇪🇺 EU-funded project', 9, 'Our new …'],
    ['a four-leaf clover', '#EthereumClassic 🍀 is here', 19, '#EthereumClassic 🍀…'],
    ['skin tones', '👍🏽👍🏿👋🏻 thanks', 3, '👍🏽👍🏿…'],
    ['a ZWJ family', 'Family: 👨‍👩‍👧‍👦 and 👩‍👩‍👦', 10, 'Family: 👨‍👩‍👧‍👦…'],
    ['a combining accent', 'Cafe\u0301 au lait', 5, 'Cafe\u0301…'],
  ])('never splits %s', (_name, text, max, expected) => {
    const cut = previewText(text, max);
    expect(cut).toBe(expected);
    expect(hasLoneSurrogate(cut)).toBe(false);
    expect(graphemes(cut).length).toBeLessThanOrEqual(max);
  });

  it('never leaves half an emoji at any length (the old cut at UTF-16 units did)', () => {
    const text = '🇪🇺👍🏽👨‍👩‍👧‍👦🍀'.repeat(3);
    for (let max = 1; max <= 14; max++) {
      const cut = previewText(text, max);
      expect(hasLoneSurrogate(cut), `max ${max}: ${cut}`).toBe(false);
      expect(text.startsWith(cut.replace(/…$/, '')), `max ${max}`).toBe(true);
    }
    expect(hasLoneSurrogate(`${text.slice(0, 39)}…`)).toBe(true);
  });
});

describe('previews in the views', () => {
  it('plan and watch: a field diff (not a text: those are word diffs) previews both values without splitting an emoji', () => {
    const before = `${'x'.repeat(56)} 🇪🇺 EU`;
    expect(String(preview(before))).toBe(`"${'x'.repeat(56)} 🇪🇺…`);
    const change = { action: 'update', key: 'launch', file: 'posts/launch.md', details: [{ code: 'file-changed', file: 'posts/launch.md', fields: ['content'] }], fields: [{ field: 'targets[a].options.vidATitle', before, after: `${'y'.repeat(57)}🍀🍀` }] } as unknown as Change;
    const lines = changeLines(change, style, { timezone: 'UTC' }).map(String);
    expect(lines.at(-1)).toBe(`      targets[a].options.vidATitle: "${'x'.repeat(56)} 🇪🇺… → "${'y'.repeat(57)}🍀…`);
    expect(lines.some(hasLoneSurrogate)).toBe(false);
  });

  it('import: the preview of a skipped post keeps whole graphemes', () => {
    const post = { id: 'p-1', status: 'draft', content: `Our new ${'🇪🇺'.repeat(40)} EU-funded project` } as Post;
    const result = { plan: { items: [], skipped: [{ post, reason: 'because' }], pending: [], filteredOut: [], managed: 0, otherCalendars: [], toDownload: [] }, outcome: { failed: [] } } as unknown as ImportResult;
    const text = String(renderImport(result, { label: 'Import', style, dryRun: true, statePath: '.postsync/state.json' }));
    expect(text).toContain(`skipped post p-1 (draft, "Our new ${'🇪🇺'.repeat(31)}…")`);
    expect(hasLoneSurrogate(text)).toBe(false);
  });
});
