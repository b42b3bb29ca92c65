import { previewText } from '../../src/text/preview.js';
import { terminalText } from '../../src/text/terminal.js';

export { formatBytes as bytes, plural } from '../../src/media/format.js';

/** Short, single-line rendering of a value in a diff: at most `max` characters, cut between graphemes. */
export function preview(value: unknown, max = 60): string {
  if (value === undefined) return '(none)';
  return terminalText(previewText(JSON.stringify(value) ?? String(value), max));
}
