import type { Diagnostic } from '../diagnostics.js';

const NEWLINE = 0x0a;

export type DecodeResult = { ok: true; text: string } | { ok: false; diagnostic: Diagnostic };

/**
 * Decodes UTF-8 strictly (a byte order mark is dropped) and turns CRLF into LF, so that a file
 * checked out with Windows line endings yields exactly the same post as on Linux and never shows
 * as a change. Invalid bytes give a diagnostic pointing at the first of them.
 */
export function decodeUtf8File(bytes: Uint8Array, file: string): DecodeResult {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { ok: true, text: text.replace(/\r\n/g, '\n') };
  } catch {
    return { ok: false, diagnostic: { severity: 'error', code: 'not-utf8', message: 'the file is not valid UTF-8 text', file, ...firstInvalidByte(bytes), expected: 'UTF-8 text', found: 'bytes that are not UTF-8 (e.g. Latin-1 or UTF-16)', hint: 'Save the file as UTF-8 in your editor.' } };
  }
}

/** A newline byte never occurs inside a multi-byte UTF-8 sequence, so lines can be checked alone. */
function firstInvalidByte(bytes: Uint8Array): { line: number; column: number } {
  let lineStart = 0;
  for (let line = 1; lineStart <= bytes.length; line++) {
    const newline = bytes.indexOf(NEWLINE, lineStart);
    const lineEnd = newline === -1 ? bytes.length : newline;
    const lineBytes = bytes.subarray(lineStart, lineEnd);
    const column = invalidColumn(lineBytes);
    if (column !== undefined) return { line, column };
    lineStart = lineEnd + 1;
  }
  return { line: 1, column: 1 };
}

function invalidColumn(lineBytes: Uint8Array): number | undefined {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    decoder.decode(lineBytes);
    return undefined;
  } catch {
    // Feed byte by byte to find where the line goes wrong; the column counts characters before it.
    const streaming = new TextDecoder('utf-8', { fatal: true });
    let characters = 0;
    for (let index = 0; index < lineBytes.length; index++) {
      try {
        characters += [...streaming.decode(lineBytes.subarray(index, index + 1), { stream: true })].length;
      } catch {
        return characters + 1;
      }
    }
    return characters + 1;
  }
}
