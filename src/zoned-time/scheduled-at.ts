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

/** Wall-clock fields of an instant in one time zone (month 1-12). */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

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
    return { ok: false, reason: 'nonexistent', hint: `${timeZone} skips this time (clocks move forward); it would be ${formatWall(wallTimeIn(shifted.getTime(), timeZone))}. Pick another time or write an offset.` };
  }
  const result: ScheduledAtResult = { ok: true, instant: new Date(earliest).toISOString() };
  if (other !== undefined) {
    result.ambiguous = { chosenOffset: formatOffset(wallMs - earliest), otherOffset: formatOffset(wallMs - other) };
  }
  return result;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock time an instant shows in an IANA time zone. */
export function wallTimeIn(instantMs: number, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instantMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
    millisecond: ((instantMs % 1000) + 1000) % 1000,
  };
}

/** The zone's UTC offset at an instant, in ms (positive east of Greenwich). */
export function offsetMs(instantMs: number, timeZone: string): number {
  return wallToUtcMs(wallTimeIn(instantMs, timeZone)) - instantMs;
}

function wallToUtcMs(wall: WallTime): number {
  const date = new Date(0);
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  date.setUTCHours(wall.hour, wall.minute, wall.second, wall.millisecond);
  return date.getTime();
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

/** A UTC offset in ms → `+01:00`, `-03:30`. */
export function formatOffset(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function formatWall(wall: WallTime): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${wall.year}-${pad(wall.month)}-${pad(wall.day)} ${pad(wall.hour)}:${pad(wall.minute)}`;
}
