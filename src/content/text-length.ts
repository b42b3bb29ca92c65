import type { CaptionRules } from '../api/types.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
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
