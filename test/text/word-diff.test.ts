import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wordDiff, wordHunks, type WordSegment } from '../../src/text/word-diff.js';
import { LONG_AFTER, LONG_BEFORE } from './texts.js';

const side = (segments: readonly WordSegment[], kind: 'removed' | 'added') => segments.filter((s) => s.kind === 'same' || s.kind === kind).map((s) => s.text).join('');

describe('wordDiff', () => {
  it('marks the one changed word of a long text, the rest kept', () => {
    const segments = wordDiff(LONG_BEFORE, LONG_AFTER);
    expect(segments.filter((s) => s.kind !== 'same')).toEqual([
      { kind: 'removed', text: 'nine' },
      { kind: 'added', text: 'ten' },
    ]);
    expect(side(segments, 'removed')).toBe(LONG_BEFORE);
    expect(side(segments, 'added')).toBe(LONG_AFTER);
  });

  it('gives back both texts whole, whatever they are', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'cat', ' ', '\n', ',', 'é', '🇪🇺', '  '), { maxLength: 30 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const segments = wordDiff(before, after);
        expect(side(segments, 'removed')).toBe(before);
        expect(side(segments, 'added')).toBe(after);
        for (let index = 1; index < segments.length; index++) expect(segments[index]!.kind).not.toBe(segments[index - 1]!.kind);
      }),
    );
  });

  it('tells a rewrite as the old text removed and the new one added, whole', () => {
    const before = 'one two three '.repeat(40);
    const after = 'four five six '.repeat(40);
    expect(wordDiff(before, after)).toEqual([
      { kind: 'removed', text: before },
      { kind: 'added', text: after },
    ]);
  });

  it('has no change for equal texts', () => {
    expect(wordDiff('same text', 'same text')).toEqual([{ kind: 'same', text: 'same text' }]);
  });
});

describe('wordHunks', () => {
  it('keeps a few words of context each side of a change, and says where text was left out', () => {
    const hunks = wordHunks(wordDiff(LONG_BEFORE, LONG_AFTER), { context: 3 });
    expect(hunks).toEqual([
      {
        cutBefore: true,
        cutAfter: true,
        segments: [
          { kind: 'same', text: 'tasting starts at ' },
          { kind: 'removed', text: 'nine' },
          { kind: 'added', text: 'ten' },
          { kind: 'same', text: ', bring a ' },
        ],
      },
    ]);
  });

  it('keeps two near changes in one hunk and splits far ones', () => {
    const before = 'one two three four five six seven eight nine ten eleven twelve';
    const near = wordHunks(wordDiff(before, before.replace('two', 'TWO').replace('five', 'FIVE')), { context: 2 });
    expect(near).toHaveLength(1);
    expect(near[0]!.cutBefore).toBe(false);
    const far = wordHunks(wordDiff(before, before.replace('two', 'TWO').replace('eleven', 'ELEVEN')), { context: 2 });
    expect(far).toHaveLength(2);
    expect(far.map((hunk) => [hunk.cutBefore, hunk.cutAfter])).toEqual([
      [false, true],
      [true, false],
    ]);
  });

  it('has no hunk when nothing changed', () => {
    expect(wordHunks(wordDiff('a b c', 'a b c'))).toEqual([]);
  });
});
