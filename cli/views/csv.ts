/** One CSV field per RFC 4180: quoted when it holds a quote, comma, CR or LF; quotes doubled. */
export function csvField(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A CSV document per RFC 4180: a header record, then the records, each ended by CRLF. */
export function renderCsv(header: readonly string[], records: readonly (readonly (string | number | null | undefined)[])[]): string {
  return [header, ...records].map((record) => `${record.map(csvField).join(',')}\r\n`).join('');
}
