import type { CaptionRules } from '../api/types.js';

/** Made when first needed: building it loads ICU's segmentation data, which most runs never need. */
let segmenter: Intl.Segmenter | undefined;
const encoder = new TextEncoder();

/**
 * Length of a text in one of the API's caption units (see CaptionRules): Unicode code points,
 * grapheme clusters, UTF-16 code units or UTF-8 bytes. An unknown unit counts code points, the
 * unit the API's own "characters" limits use.
 */
export function textLength(text: string, unit: CaptionRules['lengthUnit']): number {
  switch (unit) {
    case 'graphemes': {
      let count = 0;
      segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
      for (const _ of segmenter.segment(text)) count++;
      return count;
    }
    case 'utf16':
      return text.length;
    case 'bytes':
      return encoder.encode(text).length;
    default:
      return codePointLength(text);
  }
}

/**
 * The length of `text` in `unit` when it is over `max`, else null. Counting graphemes or bytes
 * is slow, so a cheap upper bound (UTF-16 units are at least as many as code points and grapheme
 * clusters; a UTF-16 unit is at most 3 UTF-8 bytes) settles most texts without counting.
 */
export function lengthOver(text: string, unit: CaptionRules['lengthUnit'], max: number): number | null {
  const bound = unit === 'bytes' ? text.length * 3 : text.length;
  if (bound <= max) return null;
  const length = textLength(text, unit);
  return length > max ? length : null;
}

export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** Words for a unit in messages: "280 characters", "2200 bytes". */
export function unitWord(unit: CaptionRules['lengthUnit']): string {
  switch (unit) {
    case 'graphemes':
      return 'characters (graphemes)';
    case 'utf16':
      return 'UTF-16 code units';
    case 'bytes':
      return 'bytes (UTF-8)';
    default:
      return 'characters';
  }
}
