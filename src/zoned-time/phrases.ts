import { pad } from './civil-date.js';

/** Clock times, durations and weekday names as people write them in postsync.yaml and front-matter. */

const CLOCK = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/** `09:00` or `9:00` → minutes since midnight; undefined for anything else. */
export function parseClock(text: string): number | undefined {
  const match = CLOCK.exec(text.trim());
  return match === null ? undefined : Number(match[1]) * 60 + Number(match[2]);
}

/** 540 → `09:00`. */
export function formatClock(minute: number): string {
  return `${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`;
}

const DURATION = /^(?:\d+\s*(?:d|days?|h|hrs?|hours?|m|mins?|minutes?)\s*)+$/i;
const UNIT_MINUTES: Record<string, number> = { d: 1440, h: 60, m: 1 };

/**
 * `2h`, `90m`, `1h30m`, `2 hours`, `1 day 6 hours` → minutes; undefined when the text is not
 * such a duration or is zero.
 */
export function parseDuration(text: string): number | undefined {
  const source = text.trim().toLowerCase();
  if (!DURATION.test(source)) return undefined;
  let total = 0;
  for (const [, amount, unit] of source.matchAll(/(\d+)\s*([dhm])/g)) total += Number(amount) * UNIT_MINUTES[unit!]!;
  return total > 0 ? total : undefined;
}

/** 90 → `1 h 30 min`, 120 → `2 h`, 2880 → `2 days`. */
export function formatDuration(minutes: number): string {
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const parts = [days > 0 ? `${days} day${days === 1 ? '' : 's'}` : '', hours > 0 ? `${hours} h` : '', rest > 0 ? `${rest} min` : ''];
  return parts.filter(Boolean).join(' ') || '0 min';
}

/** ISO order: index 0 is Monday (weekday 1). */
export const WEEKDAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
const FULL_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** `Mon`, `monday`, `MON` → 1 … `Sun` → 7; undefined otherwise. */
export function parseWeekday(text: string): number | undefined {
  const word = text.trim().toLowerCase();
  const index = FULL_NAMES.findIndex((name) => name === word || name.slice(0, 3) === word);
  return index === -1 ? undefined : index + 1;
}

/** 1 → `Mon`. */
export function weekdayName(weekday: number): string {
  return WEEKDAY_NAMES[weekday - 1]!;
}
