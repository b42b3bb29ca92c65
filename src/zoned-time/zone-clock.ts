import { pad } from './civil-date.js';
/**
 * The clock of an IANA time zone as Intl reads it: the wall time an instant shows there, and the
 * zone's UTC offset. The only place that asks Intl about zones.
 */

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

/** What the `en-US` formatter of `formatterFor` writes: month/day/year, hours:minutes:seconds. */
const WALL_TEXT = /^(\d{1,2})\/(\d{1,2})\/(\d+), (\d{2}):(\d{2}):(\d{2})$/;

/** The wall-clock time an instant shows in an IANA time zone. */
export function wallTimeIn(instantMs: number, timeZone: string): WallTime {
  const formatter = formatterFor(timeZone);
  // The formatted text (`1/31/2031, 09:05:00`) read back: a fraction of the cost of formatToParts.
  // Any other shape (another ICU's punctuation) is read from the parts.
  const fields = WALL_TEXT.exec(formatter.format(instantMs));
  if (fields !== null) {
    return { year: Number(fields[3]), month: Number(fields[1]), day: Number(fields[2]), hour: Number(fields[4]), minute: Number(fields[5]), second: Number(fields[6]), millisecond: ((instantMs % 1000) + 1000) % 1000 };
  }
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(new Date(instantMs))) {
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

export function wallToUtcMs(wall: WallTime): number {
  const date = new Date(0);
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  date.setUTCHours(wall.hour, wall.minute, wall.second, wall.millisecond);
  return date.getTime();
}

/** A UTC offset in ms → `+01:00`, `-03:30`. */
export function formatOffset(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
