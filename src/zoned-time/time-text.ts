import { pad, type CivilDate } from './civil-date.js';
import { formatOffset, offsetMs, wallTimeIn } from './zone-clock.js';

/**
 * The one way a person reads a time: `Fri 4 Dec 2026, 12:00 (+01:00)`, a wall clock of the
 * project's time zone with its offset (which tells the two 02:30 of a fall-back night apart).
 * Seconds show only when they are not zero. The same on every machine: no locale data is used.
 * Machines read RFC 3339 instants (`--json`, plan files, the API), never this text.
 */

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A day for people: `Mon 4 Jan 2027`. */
export function dayText(date: CivilDate): string {
  const weekday = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
  return `${WEEKDAYS[weekday]} ${date.day} ${MONTHS[date.month - 1]} ${date.year}`;
}

/** A wall clock already placed in a zone (`clock` is `HH:mm` or `HH:mm:ss`, `offset` `+01:00`) for people. */
export function placedTimeText(placed: { date: CivilDate; clock: string; offset?: string }): string {
  return `${dayText(placed.date)}, ${placed.clock}${placed.offset === undefined ? '' : ` (${placed.offset})`}`;
}

/** An instant (RFC 3339 text or epoch ms) on the clock of `timeZone`; a text that is not a time is returned as it is. */
export function timeText(instant: string | number, timeZone: string): string {
  const ms = typeof instant === 'number' ? instant : Date.parse(instant);
  if (Number.isNaN(ms)) return String(instant);
  const wall = wallTimeIn(ms, timeZone);
  const clock = `${pad(wall.hour)}:${pad(wall.minute)}${wall.second === 0 ? '' : `:${pad(wall.second)}`}`;
  return placedTimeText({ date: { year: wall.year, month: wall.month, day: wall.day }, clock, offset: formatOffset(offsetMs(ms, timeZone)) });
}
