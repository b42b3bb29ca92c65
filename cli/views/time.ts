import { formatInZone } from '../../src/import/zoned-time.js';

/**
 * An instant for people: wall time in the project's time zone with its offset, without
 * milliseconds, and to the minute when the seconds are zero (`2026-12-01 09:00+01:00`).
 * Machines get the exact ISO strings in --json.
 */
export function displayTime(instant: string | null | undefined, timeZone: string): string {
  if (instant === null || instant === undefined) return '';
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) return instant;
  const wholeSeconds = new Date(Math.floor(ms / 1000) * 1000).toISOString();
  return formatInZone(wholeSeconds, timeZone).replace('T', ' ').replace(/:00(?=[+-]\d{2}:\d{2}$)/, '');
}
