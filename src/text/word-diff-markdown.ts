import { markdownText } from './markdown.js';
import { previewText } from './preview.js';
import type { WordHunk, WordSegment } from './word-diff.js';

/** The longest run of removed or added text a Markdown word diff shows (graphemes), so one post cannot fill a comment. */
export const MARKDOWN_RUN_LIMIT = 600;

/** Text of a post inside a Markdown paragraph: every line by the Markdown rule, line breaks as `<br>` (the paragraph stays one line, so no line of the post can start a heading or a list). */
function paragraphText(text: string): string {
  return text.split(/\r?\n|\r/).map(markdownText).join('<br>');
}

function segmentMarkdown(segment: WordSegment, options: { limit: number }): string {
  if (segment.kind === 'same') return paragraphText(segment.text);
  const text = paragraphText(previewText(segment.text, options.limit));
  // GitHub shows <del> struck through and <ins> underlined; the text inside still goes by the Markdown rule.
  return segment.kind === 'removed' ? `<del>${text}</del>` : `<ins>${text}</ins>`;
}

/** A word diff's hunks on one Markdown line: `…` where kept text is left out (the hunks' own spaces around it), removed text in `<del>`, added text in `<ins>`. */
export function wordHunksMarkdown(hunks: readonly WordHunk[], options: { limit?: number } = {}): string {
  const limit = options.limit ?? MARKDOWN_RUN_LIMIT;
  return hunks.map((hunk) => `${hunk.cutBefore ? '…' : ''}${hunk.segments.map((segment) => segmentMarkdown(segment, { limit })).join('')}${hunk.cutAfter ? '…' : ''}`).join(' … ');
}

/** A whole text with its changes marked, on one Markdown line (line breaks as `<br>`). */
export function wordSegmentsMarkdown(segments: readonly WordSegment[]): string {
  return segments.map((segment) => segmentMarkdown(segment, { limit: Infinity })).join('');
}

/**
 * A collapsed block: `summary` (Markdown of ours, one line) shown, `body` (Markdown lines) folded.
 * Blank lines around each part let GitHub read Markdown inside the HTML of `<details>`.
 */
export function detailsMarkdown(summary: string, body: readonly string[]): string {
  return `<details><summary>\n\n${summary}\n\n</summary>\n\n${body.join('\n\n')}\n\n</details>\n`;
}
