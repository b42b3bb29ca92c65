import { offsetMs, wallTimeIn } from '../content/scheduled-at.js';
import type { Slot } from './model.js';

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** An instant placed in `timeZone`: its day, time and offset there; null for no time or not a time. */
export function slotOf(instant: string | null | undefined, timeZone: string): Slot | null {
  if (instant === null || instant === undefined) return null;
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) return null;
  const wall = wallTimeIn(ms, timeZone);
  const minutes = Math.round(offsetMs(ms, timeZone) / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const offset = `${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
  return { at: new Date(ms).toISOString(), day: `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`, time: `${pad(wall.hour)}:${pad(wall.minute)}`, offset };
}

/** The Monday of the ISO week holding `day` (`YYYY-MM-DD`, a calendar date: no zone involved). */
export function mondayOf(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return date.toISOString().slice(0, 10);
}

/** ISO 8601 week of a day: `2027-W01`. */
export function isoWeek(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  // The ISO week's year is the year of its Thursday.
  date.setUTCDate(date.getUTCDate() + 3 - ((date.getUTCDay() + 6) % 7));
  const year = date.getUTCFullYear();
  const week = Math.floor((date.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 / 7) + 1;
  return `${year}-W${pad(week)}`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A day for people, the same on every machine (no locale data): `Mon 4 Jan 2027`. */
export function dayText(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return `${WEEKDAYS[date.getUTCDay()]} ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** A slot for people: `Mon 4 Jan 2027, 09:00 (+01:00)`; without the offset on request. */
export function slotText(slot: Slot, options: { offset?: boolean } = {}): string {
  return `${dayText(slot.day)}, ${slot.time}${options.offset === false ? '' : ` (${slot.offset})`}`;
}
