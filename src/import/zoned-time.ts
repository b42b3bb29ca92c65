import { pad } from '../zoned-time/civil-date.js';
import { formatOffset, offsetMs, wallTimeIn } from '../zoned-time/zone-clock.js';

/**
 * An instant as RFC 3339 wall time in `timeZone` with its numeric offset, e.g.
 * `2026-12-01T09:00:00+01:00`: readable where the team works, and the same instant wherever
 * it is read. Milliseconds appear only when they are not zero. A value that is not a date is
 * returned unchanged.
 */
export function formatInZone(instant: string, timeZone: string): string {
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) return instant;
  const wall = wallTimeIn(ms, timeZone);
  const fraction = wall.millisecond === 0 ? '' : `.${pad(wall.millisecond, 3)}`;
  const offset = formatOffset(offsetMs(ms, timeZone));
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}${fraction}${offset}`;
}

/** `YYYY-MM` of an instant in `timeZone` (the month folder of an imported post). */
export function monthInZone(instant: string, timeZone: string): string | undefined {
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) return undefined;
  const wall = wallTimeIn(ms, timeZone);
  return `${pad(wall.year, 4)}-${pad(wall.month)}`;
}
