import { terminalText } from './terminal.js';

/**
 * The one Markdown rule for text from a file, a key or the remote in what GitHub renders (the job
 * summary, the pull-request comment, the health issue): such text can neither change the Markdown
 * or HTML around it nor ping people or link issues.
 */

/**
 * `@name` and `#123` broken by a zero-width joiner after `@` or `#`: GitHub neither pings nor
 * links them, and readers see the same characters.
 */
function unlinked(text: string): string {
  return text.replace(/([@#])(?=[\w-])/g, '$1\u200d');
}

/** Text on one line: line breaks become spaces, other control characters escapes of the terminal rule. */
function oneLine(text: string): string {
  return terminalText(text.replace(/\r?\n|\r/g, ' '));
}

/** `<`, `>` and `&` as entities: GitHub reads raw HTML in Markdown. */
function inlineHtmlSafe(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Text shown as it is (a caption, a reason), also in a table cell: the punctuation that means
 * something inside a line escaped (emphasis, code, links, the cell separator), HTML as entities,
 * line breaks as spaces, mentions and refs unlinked.
 */
export function markdownText(text: string): string {
  return unlinked(inlineHtmlSafe(oneLine(text)).replace(/[\\`*_[\]|~]/g, (char) => `\\${char}`));
}

/**
 * One of our messages, which may quote a file, a key or the remote's words and marks names as
 * `code` itself. Its code spans (found as CommonMark finds them: a backtick run closed by the next
 * run of the same length) stay as they are, since GitHub links and renders nothing inside code;
 * the prose between them gets HTML as entities, backslashes doubled (so no backtick is escaped out
 * of its span), `[` and `]` escaped (a link or image in quoted words is shown as text, never
 * rendered or loaded) and mentions and refs unlinked. Line breaks become spaces and `|` is escaped, for
 * table cells.
 */
export function markdownMessage(text: string): string {
  const line = oneLine(text);
  const prose = (part: string) => unlinked(inlineHtmlSafe(part).replace(/\\/g, '\\\\').replace(/[[\]]/g, (char) => `\\${char}`));
  let out = '';
  let at = 0;
  const runs = [...line.matchAll(/`+/g)];
  for (let index = 0; index < runs.length; index++) {
    const open = runs[index]!;
    const closing = runs.findIndex((run, later) => later > index && run[0].length === open[0].length);
    if (closing < 0) continue;
    const close = runs[closing]!;
    out += prose(line.slice(at, open.index)) + line.slice(open.index, close.index + close[0].length);
    at = close.index + close[0].length;
    index = closing;
  }
  return (out + prose(line.slice(at))).replace(/\|/g, '\\|');
}

/**
 * Inline code that holds any text: fenced with more backticks than its longest run (CommonMark),
 * padded with a space when it starts or ends with a backtick or a space, control characters
 * written by the terminal rule. `table`: inside a table cell, where `|` must be escaped.
 */
export function inlineCode(text: string, options: { table?: boolean } = {}): string {
  const shown = terminalText(text);
  const longest = Math.max(0, ...(shown.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const padded = /^[`\s]|[`\s]$/.test(shown) ? ` ${shown} ` : shown;
  return `${fence}${options.table === true ? padded.replace(/\|/g, '\\|') : padded}${fence}`;
}

/** A fence for a code block around `text`: longer than any backtick run in it, at least three. */
export function codeFence(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(longest + 1);
}

/**
 * `head`, then as many of `parts` as fit with `tail` within `maxBytes` of UTF-8, then `tail`.
 * Whole parts only (a table row, a week), so nothing is cut in half; when parts are left out,
 * `cutNote(left)` stands where they would have been, and room for it is always kept.
 */
export function withinBytes(input: { head: string; parts: readonly string[]; tail?: string; maxBytes: number; cutNote: (left: number) => string }): string {
  const { head, parts, maxBytes, cutNote } = input;
  const tail = input.tail ?? '';
  let used = Buffer.byteLength(head) + Buffer.byteLength(tail);
  for (let count = 0; count < parts.length; count++) {
    const part = parts[count]!;
    const note = cutNote(parts.length - count);
    if (used + Buffer.byteLength(part) + Buffer.byteLength(note) > maxBytes) return `${head}${parts.slice(0, count).join('')}${note}${tail}`;
    used += Buffer.byteLength(part);
  }
  return `${head}${parts.join('')}${tail}`;
}
