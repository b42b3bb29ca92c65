import type { Diagnostic } from '../diagnostics.js';
import { formatPath } from './schema-errors.js';
import type { DataPath } from './yaml-source.js';

/**
 * A whole value in typographic quotes (`“Saturday tasting”`, `‘coffee’`, `„Kaffee“`, `«café»`), as
 * a word processor or a phone keyboard writes them. YAML takes only straight quotes as quotes, so
 * these are part of the value.
 */
const CURLY_QUOTED = /^([“”„‘’‚«»‹›])(.+)([“”‘’«»‹›])$/s;

export interface CurlyQuoted {
  /** The value without its quotes. */
  inner: string;
  /** The two quote marks, as `“ ”`. */
  marks: string;
}

export function curlyQuoted(value: string): CurlyQuoted | undefined {
  const match = CURLY_QUOTED.exec(value.trim());
  return match === null ? undefined : { inner: match[2]!, marks: `${match[1]} ${match[3]}` };
}

/**
 * The problem of a value at `path` in curly quotes, what it does to the value in words (`effect`),
 * without its place in the file.
 */
export function curlyQuotesProblem(path: DataPath, quoted: CurlyQuoted, options: { severity: Diagnostic['severity']; effect: string }): Diagnostic {
  const { inner, marks } = quoted;
  const short = inner.length <= 60 && !/["\n\\]/.test(inner);
  return {
    severity: options.severity,
    code: 'curly-quotes',
    message: `\`${formatPath(path)}\` is in curly quotes (${marks}), ${options.effect}`,
    expected: 'straight quotes (") or none',
    found: `curly quotes ${marks}`,
    hint: short ? `Write straight quotes ("${inner}") or none: ${inner}` : 'Write straight quotes (") or none.',
  };
}
