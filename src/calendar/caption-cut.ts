import type { CaptionRules } from '../api/types.js';
import { textLength } from '../content/text-length.js';

/** A caption split where an account's limit cuts it: `shown` + `overflow` is the text. */
export interface CaptionCut {
  shown: string;
  overflow: string;
  /** The whole text's length in the unit. */
  length: number;
}

const encoder = new TextEncoder();

/**
 * Splits `text` after its first `max` units (code points, graphemes, UTF-16 units or UTF-8 bytes,
 * as the account counts). The cut never splits a character: in bytes, a code point that does not
 * fit whole goes to the overflow; in UTF-16 units, so does a surrogate pair. `max` null: no limit.
 */
export function cutCaption(text: string, unit: CaptionRules['lengthUnit'], max: number | null): CaptionCut {
  const length = textLength(text, unit);
  if (max === null || length <= max) return { shown: text, overflow: '', length };
  const index = cutIndex(text, unit, max);
  return { shown: text.slice(0, index), overflow: text.slice(index), length };
}

/** The UTF-16 index where the first `max` units of `text` end. */
function cutIndex(text: string, unit: CaptionRules['lengthUnit'], max: number): number {
  let used = 0;
  let index = 0;
  for (const piece of pieces(text, unit)) {
    const size = unit === 'bytes' ? encoder.encode(piece).length : unit === 'utf16' ? piece.length : 1;
    if (used + size > max) break;
    used += size;
    index += piece.length;
  }
  return index;
}

/** The text in the unit's indivisible pieces: grapheme clusters, or code points for every other unit. */
function pieces(text: string, unit: CaptionRules['lengthUnit']): Iterable<string> {
  if (unit !== 'graphemes') return text;
  const segments = new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text);
  return { [Symbol.iterator]: function* () { for (const { segment } of segments) yield segment; } };
}
