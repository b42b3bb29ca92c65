import { terminalText } from './terminal.js';

/**
 * The one Markdown rule for text from a file, a key or the remote in what GitHub renders (the job
 * summary, the pull-request comment, the health issue): such text can neither change the Markdown
 * or HTML around it nor ping people or link issues.
 *
 * `Markdown` is text already safe for GitHub, and only this module makes it: the `md` template
 * (its literal parts are ours; every interpolated string is escaped as plain text) and the
 * builders below (a code span, one of our messages, a link, a code block). The places that hand
 * Markdown to GitHub (the job summary, the pull-request comment, the health issue) take `Markdown`
 * only, so text that skipped escaping does not compile.
 */

/** Only this module holds it: no other module can make `Markdown` of a string. */
const MADE_HERE = Symbol('markdown');

/** Markdown safe to hand to GitHub: made by `md` and the builders of this module. */
export class Markdown {
  readonly #text: string;

  constructor(key: typeof MADE_HERE, text: string) {
    if (key !== MADE_HERE) throw new TypeError('Markdown is made by md`…` and the builders of src/text/markdown.ts');
    this.#text = text;
  }

  toString(): string {
    return this.#text;
  }
}

const made = (text: string) => new Markdown(MADE_HERE, text);

/** What `md` takes: Markdown as it is; a string is escaped as plain text; a number as its digits; a list joined. */
export type MarkdownValue = Markdown | string | number | readonly Markdown[];

function rendered(value: MarkdownValue): string {
  if (value instanceof Markdown) return value.toString();
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return escapedText(value);
  return value.map(String).join('');
}

/**
 * Markdown from a template: its literal parts are trusted (ours, written in the source), every
 * interpolated string is escaped as plain text (`markdownText`), Markdown is kept as it is.
 */
export function md(strings: TemplateStringsArray, ...values: readonly MarkdownValue[]): Markdown {
  // A template's strings carry `raw`: an array of someone's text passed as the strings has none.
  if (!Array.isArray(strings.raw)) throw new TypeError('md is a tag: md`…`');
  let out = strings[0]!;
  for (let index = 0; index < values.length; index++) out += rendered(values[index]!) + strings[index + 1]!;
  return made(out);
}

/** Markdown parts joined by a separator of our own. */
export function joinMarkdown(parts: readonly Markdown[], separator: '' | '\n' | ', ' | '; '): Markdown {
  return made(parts.map(String).join(separator));
}

/** Untrusted text shown as it is, as `md` shows an interpolated string (for a value that may already be Markdown). */
export function markdownText(text: string): Markdown {
  return made(escapedText(text));
}

/**
 * One of our messages, which may quote a file, a key or the remote's words and marks names as
 * `code` itself: its code spans kept, the prose between them escaped (see `escapedMessage`).
 */
export function markdownMessage(text: string): Markdown {
  return made(escapedMessage(text));
}

/** Inline code that holds any text. `table`: inside a table cell, where `|` must be escaped. */
export function inlineCode(text: string, options: { table?: boolean } = {}): Markdown {
  return made(codeSpan(text, options));
}

/** What would end a link's url or hide in it: parentheses, angle brackets, white space, and the characters the terminal rule escapes. */
const UNSAFE_IN_URL = /[()<>\s\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;

/**
 * `[label](url)`: the url's parentheses, angle brackets, white space and unsafe characters percent-encoded, so
 * it ends where it should and an ordinary url is unchanged.
 */
export function markdownLink(label: Markdown, url: string): Markdown {
  const encoded = url.replace(UNSAFE_IN_URL, (char) => (char === '(' ? '%28' : char === ')' ? '%29' : encodeURIComponent(char)));
  return made(`[${label.toString()}](${encoded})`);
}

/** Text for a double-quoted HTML attribute: it cannot end the attribute or open a tag. */
function attributeText(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[char]};`);
}

/**
 * A picture GitHub shows inline: `src` must be an http(s) URL whose parts the caller encoded (a
 * path segment with `encodeURIComponent`); `alt` is untrusted text, kept inside its attribute.
 */
export function htmlImage(input: { src: string; alt: string; height: number }): Markdown {
  if (!/^https?:\/\/[^\s"'<>]+$/.test(input.src)) throw new TypeError(`not an encoded http(s) URL: ${JSON.stringify(input.src)}`);
  return made(`<img src="${attributeText(input.src)}" alt="${attributeText(terminalText(input.alt))}" height="${Math.round(input.height)}">`);
}

/**
 * A hidden `<!-- text -->` line that finds our own comment or issue again. Its text comes encoded
 * by the caller (each marker has kept its encoding since it was made): one holding `<`, `>` or a
 * line break could end the comment, so it is refused.
 */
export function htmlComment(text: string): Markdown {
  if (/[<>\r\n]/.test(text)) throw new TypeError(`a marker must be encoded: ${JSON.stringify(text)}`);
  return made(`<!-- ${text} -->`);
}

/**
 * A fenced code block of `text` as it is (GitHub renders nothing inside): the fence longer than any
 * backtick run in it, at least three; every line led by `indent` (inside a list item).
 */
export function codeBlock(text: string, options: { indent: string }): Markdown {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return made([fence, ...text.split('\n'), fence].map((line) => `${options.indent}${line}`).join('\n'));
}

/** `markdown` without its last line break, if it ends with one. */
export function withoutFinalLineBreak(markdown: Markdown): Markdown {
  return made(markdown.toString().replace(/\n$/, ''));
}

/**
 * `head`, then as many of `parts` as fit with `tail` within `maxBytes` of UTF-8, then `tail`.
 * Whole parts only (a table row, a week), so nothing is cut in half; when parts are left out,
 * `cutNote(left)` stands where they would have been, and room for it is always kept.
 */
export function withinBytes(input: { head: Markdown; parts: readonly Markdown[]; tail?: Markdown; maxBytes: number; cutNote: (left: number) => Markdown }): Markdown {
  const head = input.head.toString();
  const parts = input.parts.map(String);
  const tail = input.tail?.toString() ?? '';
  const { maxBytes } = input;
  let used = Buffer.byteLength(head) + Buffer.byteLength(tail);
  for (let count = 0; count < parts.length; count++) {
    const part = parts[count]!;
    const note = input.cutNote(parts.length - count).toString();
    if (used + Buffer.byteLength(part) + Buffer.byteLength(note) > maxBytes) return made(`${head}${parts.slice(0, count).join('')}${note}${tail}`);
    used += Buffer.byteLength(part);
  }
  return made(`${head}${parts.join('')}${tail}`);
}

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
function escapedText(text: string): string {
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
function escapedMessage(text: string): string {
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
function codeSpan(text: string, options: { table?: boolean }): string {
  const shown = terminalText(text);
  const longest = Math.max(0, ...(shown.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const padded = /^[`\s]|[`\s]$/.test(shown) ? ` ${shown} ` : shown;
  return `${fence}${options.table === true ? padded.replace(/\|/g, '\\|') : padded}${fence}`;
}

