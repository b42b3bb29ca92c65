import { previewText } from '../../src/text/preview.js';
import { term, type Terminal } from '../../src/text/terminal.js';
import { timeText } from '../../src/zoned-time/index.js';

export { formatBytes as bytes, plural } from '../../src/media/format.js';

/** Short, single-line rendering of a value in a diff: at most `max` characters, cut between graphemes. */
export function preview(value: unknown, max = 60): Terminal {
  if (value === undefined) return term`(none)`;
  return term`${previewText(JSON.stringify(value) ?? String(value), max)}`;
}

/**
 * A time for a terminal line, on the project's clock (`timeText`). A time it cannot read is shown
 * as it came (it may be the remote's words), so it goes by the terminal rule.
 */
export function shownTime(instant: string | number, timeZone: string): Terminal {
  return term`${timeText(instant, timeZone)}`;
}
