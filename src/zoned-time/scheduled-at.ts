import { formatOffset, offsetMs, wallTimeIn, wallToUtcMs, type WallTime } from './zone-clock.js';
import { timeText } from './time-text.js';

/**
 * `scheduledAt` as users write it → an instant. Accepted: `YYYY-MM-DD HH:mm[:ss]` or
 * `YYYY-MM-DDTHH:mm[:ss[.SSS]]`, optionally followed by `Z` or an offset (`+01:00`, `+0100`).
 * Without an offset the wall-clock time is read in the project's IANA time zone.
 */
export type ScheduledAtResult =
  | { ok: true; instant: string; ambiguous?: { chosenOffset: string; otherOffset: string } }
  | { ok: false; reason: 'format' | 'range' | 'nonexistent'; hint?: string };

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(?:\s*([Zz]|[+-]\d{2}(?::?\d{2})?))?$/;

export const SCHEDULED_AT_FORMATS = '`2026-12-01 09:00`, `2026-12-01T09:00:00`, optionally with `Z` or an offset such as `+01:00`';

export function parseScheduledAt(text: string, timeZone: string): ScheduledAtResult {
  const match = PATTERN.exec(text.trim());
  if (match === null) return { ok: false, reason: 'format' };
  const [, year, month, day, hour, minute, second, fraction, offset] = match;
  const wall: WallTime = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second ?? 0),
    millisecond: Number((fraction ?? '0').padEnd(3, '0')),
  };
  if (!isValidWallTime(wall)) return { ok: false, reason: 'range' };
  const wallMs = wallToUtcMs(wall);
  if (offset !== undefined) {
    const offsetMinutes = parseOffset(offset);
    if (offsetMinutes === undefined) return { ok: false, reason: 'range' };
    return { ok: true, instant: new Date(wallMs - offsetMinutes * 60_000).toISOString() };
  }
  return zonedToInstant(wall, wallMs, timeZone);
}

/**
 * The instants whose wall-clock time in `timeZone` equals `wall`: one normally, none in a
 * spring-forward gap (an error: that time does not exist), two in a fall-back overlap (the earlier
 * is taken, as Temporal's "compatible" disambiguation does, and reported).
 */
function zonedToInstant(wall: WallTime, wallMs: number, timeZone: string): ScheduledAtResult {
  // Offsets a zone uses within a day of the wall time cover both sides of any transition.
  const offsets = new Set([offsetMs(wallMs - 86_400_000, timeZone), offsetMs(wallMs, timeZone), offsetMs(wallMs + 86_400_000, timeZone)]);
  const candidates = [...offsets]
    .map((offset) => wallMs - offset)
    .filter((instant) => wallToUtcMs(wallTimeIn(instant, timeZone)) === wallMs)
    .sort((a, b) => a - b);
  const [earliest, other] = [...new Set(candidates)];
  if (earliest === undefined) {
    const shifted = new Date(wallMs - offsetMs(wallMs - 86_400_000, timeZone));
    return { ok: false, reason: 'nonexistent', hint: `${timeZone} skips this time (clocks move forward); it would be ${timeText(shifted.getTime(), timeZone)}. Pick another time or write an offset.` };
  }
  const result: ScheduledAtResult = { ok: true, instant: new Date(earliest).toISOString() };
  if (other !== undefined) {
    result.ambiguous = { chosenOffset: formatOffset(wallMs - earliest), otherOffset: formatOffset(wallMs - other) };
  }
  return result;
}

function isValidWallTime(wall: WallTime): boolean {
  if (wall.month < 1 || wall.month > 12 || wall.hour > 23 || wall.minute > 59 || wall.second > 59) return false;
  const check = new Date(wallToUtcMs(wall));
  return check.getUTCMonth() === wall.month - 1 && check.getUTCDate() === wall.day;
}

function parseOffset(offset: string): number | undefined {
  if (offset === 'Z' || offset === 'z') return 0;
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  if (hours > 23 || minutes > 59) return undefined;
  return (offset.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}
