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

/** Untrusted text for a terminal line: every unsafe character as a visible escape (`\n`, `\x1b`, `\u202e`). */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, visible);
}

/**
 * A path for a terminal line: as it is when it is plain; in double quotes when it holds a space,
 * a quote, a backslash or an unsafe character, with `"` and `\` escaped and unsafe characters
 * written as in `terminalText`, so where the path starts and ends is never in doubt.
 */
export function terminalPath(path: string): string {
  if (!/[\s"\\]/.test(path) && !hasUnsafeCharacters(path)) return path;
  return `"${terminalText(path.replace(/[\\"]/g, (char) => `\\${char}`))}"`;
}

/**
 * A value as indented JSON for stdout (`--json`), with every unsafe character of a string written
 * as a `\uXXXX` escape: JSON.stringify escapes only C0 inside strings, so DEL, C1, bidi and
 * zero-width marks would reach the terminal raw (a raw C0 character there is the JSON's own line
 * break). The text parses back to the same value.
 */
export function terminalJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`.replace(UNSAFE_BEYOND_C0, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
