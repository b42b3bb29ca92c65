import { parseScheduledAt } from './scheduled-at.js';
import { offsetMs, wallTimeIn } from './zone-clock.js';
import { dayNumber, formatCivilDate, parseCivilDate, type CivilDate } from './civil-date.js';
import { formatClock, parseClock } from './phrases.js';

/**
 * A moment as a wall clock in some time zone shows it: a civil date and the minute of that day
 * (0–1439). Seconds are dropped: every calendar policy works to the minute.
 */
export interface WallMoment {
  readonly date: CivilDate;
  readonly minute: number;
}

/** The wall moment an instant shows in an IANA time zone. */
export function wallMomentOf(instantMs: number, timeZone: string): WallMoment {
  const wall = wallTimeIn(instantMs, timeZone);
  return { date: { year: wall.year, month: wall.month, day: wall.day }, minute: wall.hour * 60 + wall.minute };
}

/**
 * A number that orders wall moments of any date (minutes since 1970-01-01 00:00 on the wall
 * clock), for comparing with ranges written as wall times, such as blackout periods.
 */
export function wallMinutes(moment: WallMoment): number {
  return dayNumber(moment.date) * 1440 + moment.minute;
}

/**
 * The instant at which `timeZone`'s clock shows `moment`, as Temporal's "compatible"
 * disambiguation resolves it: in a fall-back overlap the earlier of the two instants; in a
 * spring-forward gap the clock time is moved forward by the length of the gap (02:30 in
 * Europe/Berlin on 2026-03-29 becomes 03:30), with `shifted` set.
 */
export function instantAt(moment: WallMoment, timeZone: string): { instantMs: number; shifted: boolean } {
  const parsed = parseScheduledAt(`${formatCivilDate(moment.date)} ${formatClock(moment.minute)}`, timeZone);
  if (parsed.ok) return { instantMs: Date.parse(parsed.instant), shifted: false };
  // Only a gap fails here (the text is well formed): read it with the offset from before the gap.
  const wallMs = Date.UTC(moment.date.year, moment.date.month - 1, moment.date.day, 0, moment.minute);
  return { instantMs: wallMs - offsetMs(wallMs - 86_400_000, timeZone), shifted: true };
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}:\d{2}))?$/;

/**
 * `2027-01-10` or `2027-01-10 12:00` (a wall time, no offset: it is read in the project's time
 * zone) → the moment (a date alone is its midnight); undefined when it is neither or not real.
 */
export function parseWallMoment(text: string): { moment: WallMoment; hasTime: boolean } | undefined {
  const match = DATE_TIME.exec(text.trim());
  if (match === null) return undefined;
  const date = parseCivilDate(match[1]!);
  const minute = match[2] === undefined ? 0 : parseClock(match[2]);
  if (date === undefined || minute === undefined) return undefined;
  return { moment: { date, minute }, hasTime: match[2] !== undefined };
}
