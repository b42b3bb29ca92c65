import type { Markdown } from './markdown.js';

/** The unsafe characters past C0, as a character class's text: DEL, C1, bidi and zero-width marks, line separators, BOM. */
const BEYOND_C0 = '\\u007f-\\u009f\\u061c\\u200b-\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2060-\\u2069\\ufeff';

/**
 * The one printing rule for text that comes from a file, a path, a key, a handle or the remote:
 * characters that can move the cursor, rewrite the screen, end a line or hide text (C0, DEL, C1,
 * and the bidi and zero-width marks) are written as visible escapes, so what is printed is what
 * is there and always stays on its line. Ordinary text (printable ASCII and letters) is unchanged.
 */
const UNSAFE = new RegExp(`[\\u0000-\\u001f${BEYOND_C0}]`, 'g');

/** UNSAFE without C0, which JSON.stringify escapes in strings itself. */
const UNSAFE_BEYOND_C0 = new RegExp(`[${BEYOND_C0}]`, 'g');

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function visible(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Whether `text` holds a character the terminal rule escapes. */
export function hasUnsafeCharacters(text: string): boolean {
  return new RegExp(UNSAFE.source).test(text);
}

/**
 * Untrusted text for a terminal line: every unsafe character as a visible escape (`\n`, `\x1b`, `\u202e`).
 * The rule itself, for text that goes on to another sink or into one of our messages; what is
 * printed is `Terminal`, made by `term` (which applies this rule to every string put into it).
 */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, visible);
}

/**
 * `Terminal` is text already safe for a terminal, and only this module makes it: the `term`
 * template (its literal parts are ours; every interpolated string goes by the terminal rule) and
 * the builders below (a path, one of our messages, a join, a `--json` document). The writers of
 * cli/ (`cli/output.ts`) take `Terminal` only, so text that skipped the rule does not compile.
 * The rule is idempotent: a string escaped before (a message of src/) is unchanged by `term`.
 */

/** Only this module holds it: no other module can make `Terminal` of a string. */
const MADE_HERE = Symbol('terminal');

/** Text safe to write to a terminal: made by `term` and the builders of this module. */
export class Terminal {
  readonly #text: string;

  constructor(key: typeof MADE_HERE, text: string) {
    if (key !== MADE_HERE) throw new TypeError('Terminal is made by term`…` and the builders of src/text/terminal.ts');
    this.#text = text;
  }

  toString(): string {
    return this.#text;
  }
}

const made = (text: string) => new Terminal(MADE_HERE, text);

/** What `term` takes: Terminal as it is; a string by the terminal rule; a number as its digits. */
export type TerminalValue = Terminal | string | number;

function rendered(value: TerminalValue): string {
  if (value instanceof Terminal) return value.toString();
  if (typeof value === 'number') return String(value);
  return terminalText(value);
}

/**
 * Terminal text from a template: its literal parts are trusted (ours, written in the source), every
 * interpolated string goes by the terminal rule (`terminalText`), Terminal is kept as it is.
 */
export function term(strings: TemplateStringsArray, ...values: readonly TerminalValue[]): Terminal {
  // A template's strings carry `raw`: an array of someone's text passed as the strings has none.
  if (!Array.isArray(strings.raw)) throw new TypeError('term is a tag: term`…`');
  let out = strings[0]!;
  for (let index = 0; index < values.length; index++) out += rendered(values[index]!) + strings[index + 1]!;
  return made(out);
}

/** The separators views join with: ours, never text from outside. */
export type TerminalSeparator = '' | ',' | ' ' | '  ' | '\n' | '\n\n' | ', ' | '; ' | ' · ' | ' and ';

/** Terminal parts joined by a separator of our own. */
export function joinTerminal(parts: readonly Terminal[], separator: TerminalSeparator): Terminal {
  return made(parts.map(String).join(separator));
}

/**
 * A path for a terminal line: as it is when it is plain; in double quotes when it holds a space,
 * a quote, a backslash or an unsafe character, with `"` and `\` escaped and unsafe characters
 * written as in `terminalText`, so where the path starts and ends is never in doubt.
 */
export function terminalPath(path: string): Terminal {
  if (!/[\s"\\]/.test(path) && !hasUnsafeCharacters(path)) return made(path);
  return made(`"${terminalText(path.replace(/[\\"]/g, (char) => `\\${char}`))}"`);
}

/**
 * One of our messages (an error's message or hint), which may quote a file, a key or the remote:
 * each of its lines goes by the terminal rule; the line breaks we put in stay.
 */
export function terminalMessage(text: string): Terminal {
  return made(text.split('\n').map(terminalText).join('\n'));
}

/**
 * Markdown on stdout (`plan --markdown`): each line by the terminal rule, our line breaks kept, and
 * the zero-width joiner kept, which the Markdown rule puts after `@` and `#` so that GitHub neither
 * pings nor links (the text it sits in was escaped by that rule already).
 */
export function terminalMarkdown(markdown: Markdown): Terminal {
  return made(markdown.toString().split('\n').map((line) => line.split('\u200d').map(terminalText).join('\u200d')).join('\n'));
}

/**
 * A value as indented JSON for stdout (`--json`), with every unsafe character of a string written
 * as a `\uXXXX` escape: JSON.stringify escapes only C0 inside strings, so DEL, C1, bidi and
 * zero-width marks would reach the terminal raw (a raw C0 character there is the JSON's own line
 * break). The text parses back to the same value.
 */
export function terminalJson(value: unknown): Terminal {
  return made(`${JSON.stringify(value, null, 2)}\n`.replace(UNSAFE_BEYOND_C0, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/**
 * Terminal text with codes of our own around it (colour, from `cli/views/style.ts`, the one module
 * that calls this): `paint` gets the safe text and may add only escape codes it writes itself.
 */
export function painted(text: Terminal, paint: (safe: string) => string): Terminal {
  return made(paint(text.toString()));
}

/** The colour codes `painted` adds: they take no room on the screen. */
const COLOUR_CODES = /\x1b\[[0-9;]*m/g;

/** Width on a terminal: colour codes take none; each code point counts one (wide CJK glyphs are rare in these tables). */
export function terminalWidth(text: Terminal): number {
  return [...text.toString().replace(COLOUR_CODES, '')].length;
}

/** `text` filled with spaces to `width` columns, on its right (`left`, the default) or its left (`right`). */
export function padTerminal(text: Terminal, width: number, align: 'left' | 'right' = 'left'): Terminal {
  const fill = ' '.repeat(Math.max(0, width - terminalWidth(text)));
  return made(align === 'right' ? fill + text.toString() : text.toString() + fill);
}

/** `text` without the spaces at its end. */
export function trimTerminalEnd(text: Terminal): Terminal {
  return made(text.toString().trimEnd());
}

/** At most the first `length` characters of `text` (a live line cut to the screen's width). */
export function cutTerminal(text: Terminal, length: number): Terminal {
  return made(text.toString().slice(0, length));
}

/** The lines of `text`, each still safe: cutting safe text at our own line breaks adds nothing. */
export function terminalLines(text: Terminal): Terminal[] {
  return text.toString().split('\n').map(made);
}
