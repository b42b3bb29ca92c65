/**
 * Cuts `text` to at most `max` user-perceived characters (grapheme clusters), the last one an
 * ellipsis when anything was cut. Cutting at UTF-16 code units could split a surrogate pair, a
 * flag (🇪🇺), a skin-tone modifier or a ZWJ family (👨‍👩‍👧‍👦) and print `�`; a grapheme is never split.
 * Every preview of a post's text goes through here (import, plan and watch).
 */
export function previewText(text: string, max: number): string {
  // A text of at most `max` UTF-16 units has at most `max` graphemes: nothing to segment.
  if (text.length <= max) return text;
  // Made per call, and only for a text that may be too long: previews are few, and building a
  // segmenter at module load would slow down every command that never shows one.
  const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let count = 0;
  let cut = 0;
  for (const { index } of graphemes.segment(text)) {
    if (count === max - 1) cut = index;
    if (count === max) return `${text.slice(0, cut)}…`;
    count += 1;
  }
  return text;
}
