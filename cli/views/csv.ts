import { joinTerminal, term, type Terminal } from '../../src/text/terminal.js';

/** One CSV field per RFC 4180: quoted when it holds a quote, comma, CR or LF; quotes doubled. */
export function csvField(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A CSV document per RFC 4180 for the terminal: a header record, then the records, each ended by
 * CRLF. A field is quoted, then goes by the terminal rule (a line break in it is written `\n`).
 */
export function renderCsv(header: readonly string[], records: readonly (readonly (string | number | null | undefined)[])[]): Terminal {
  const field = (value: string | number | null | undefined) => term`${csvField(value)}`;
  return joinTerminal([header, ...records].map((record) => term`${joinTerminal(record.map(field), ',')}\r\n`), '');
}
