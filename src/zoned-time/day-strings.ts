import { addDays, dayNumber, formatCivilDate, isoWeekday, pad, parseCivilDate, weekStart, type CivilDate } from './civil-date.js';
import { dayText } from './time-text.js';

/**
 * Days as `YYYY-MM-DD` text, as the calendar's model and page carry them: the day of a post is
 * worked out in the project's zone once, and from then on only days are counted, on civil dates
 * (no day is 23 or 25 hours long). The page's script imports these too, so the page and the
 * server name a week or a day the same way. A text that is not a day is returned as it is.
 */

/** True for a real date written exactly `YYYY-MM-DD`. */
export function isDay(text: string): boolean {
  const date = parseCivilDate(text);
  return date !== undefined && formatCivilDate(date) === text;
}

function onDate(day: string, change: (date: CivilDate) => CivilDate): string {
  const date = parseCivilDate(day);
  return date === undefined ? day : formatCivilDate(change(date));
}

/** `day` moved by `days` (negative: earlier). */
export function shiftDay(day: string, days: number): string {
  return onDate(day, (date) => addDays(date, days));
}

/** The Monday of the ISO week holding `day`. */
export function mondayOf(day: string): string {
  return onDate(day, weekStart);
}

/** The ISO weekday of a day, 1 = Monday … 7 = Sunday; 0 for a text that is not a day. */
export function weekdayOf(day: string): number {
  const date = parseCivilDate(day);
  return date === undefined ? 0 : isoWeekday(date);
}

/** ISO 8601 week of a day: `2027-W01` (the week's year is the year of its Thursday). */
export function isoWeek(day: string): string {
  const date = parseCivilDate(day);
  if (date === undefined) return day;
  const thursday = addDays(weekStart(date), 3);
  const week = Math.floor((dayNumber(thursday) - dayNumber({ year: thursday.year, month: 1, day: 1 })) / 7) + 1;
  return `${thursday.year}-W${pad(week)}`;
}

/** A day for people, as every time is shown: `Mon 4 Jan 2027`. */
export function dayTitle(day: string): string {
  const date = parseCivilDate(day);
  return date === undefined ? day : dayText(date);
}
