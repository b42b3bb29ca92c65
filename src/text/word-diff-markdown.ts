import { md, type Markdown } from './markdown.js';
import { previewText } from './preview.js';
import type { WordHunk, WordSegment } from './word-diff.js';

/** The longest run of removed or added text a Markdown word diff shows (graphemes), so one post cannot fill a comment. */
export const MARKDOWN_RUN_LIMIT = 600;

/** Text of a post inside a Markdown paragraph: every line by the Markdown rule, line breaks as `<br>` (the paragraph stays one line, so no line of the post can start a heading or a list). */
function paragraphText(text: string): Markdown {
  return md`${text.split(/\r?\n|\r/).map((line, index) => (index === 0 ? md`${line}` : md`<br>${line}`))}`;
}

function segmentMarkdown(segment: WordSegment, options: { limit: number }): Markdown {
  if (segment.kind === 'same') return paragraphText(segment.text);
  const text = paragraphText(previewText(segment.text, options.limit));
  // GitHub shows <del> struck through and <ins> underlined; the text inside still goes by the Markdown rule.
  return segment.kind === 'removed' ? md`<del>${text}</del>` : md`<ins>${text}</ins>`;
}

/** A word diff's hunks on one Markdown line: `…` where kept text is left out (the hunks' own spaces around it), removed text in `<del>`, added text in `<ins>`. */
export function wordHunksMarkdown(hunks: readonly WordHunk[], options: { limit?: number } = {}): Markdown {
  const limit = options.limit ?? MARKDOWN_RUN_LIMIT;
  const shown = hunks.map((hunk) => md`${hunk.cutBefore ? md`…` : md``}${hunk.segments.map((segment) => segmentMarkdown(segment, { limit }))}${hunk.cutAfter ? md`…` : md``}`);
  return md`${shown.map((hunk, index) => (index === 0 ? hunk : md` … ${hunk}`))}`;
}

/** A whole text with its changes marked, on one Markdown line (line breaks as `<br>`). */
export function wordSegmentsMarkdown(segments: readonly WordSegment[]): Markdown {
  return md`${segments.map((segment) => segmentMarkdown(segment, { limit: Infinity }))}`;
}

/**
 * A collapsed block: `summary` (one line) shown, `body` (Markdown lines) folded.
 * Blank lines around each part let GitHub read Markdown inside the HTML of `<details>`.
 */
export function detailsMarkdown(summary: Markdown, body: readonly Markdown[]): Markdown {
  return md`<details><summary>\n\n${summary}\n\n</summary>\n\n${body.map((line, index) => (index === 0 ? line : md`\n\n${line}`))}\n\n</details>\n`;
}
