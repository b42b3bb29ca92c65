import { dayTitle, isDay as isCivilDay, mondayOf, shiftDay, weekdayOf } from '../../zoned-time/day-strings.js';
import { WEEKDAY_NAMES } from '../../zoned-time/phrases.js';

/**
 * Calendar days as `YYYY-MM-DD` strings. Posts come with their day and time in the project's time
 * zone already worked out (server side), so the page only counts days: the day helpers are the
 * server's (src/zoned-time), so both name a week and a day alike; months are the page's own.
 */
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const WEEKDAYS = WEEKDAY_NAMES;
export { dayTitle, mondayOf, weekdayOf };
/** `shiftDay`, by the name the page's views use. */
export const addDays = shiftDay;

const toDate = (day: string) => new Date(`${day}T00:00:00Z`);
const toDay = (date: Date) => date.toISOString().slice(0, 10);

/** `2027-01` + n months. */
export function addMonths(month: string, months: number): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  const date = new Date(Date.UTC(year, index - 1 + months, 1));
  return toDay(date).slice(0, 7);
}

/** The weeks (Mondays) a month's grid shows: from the week of its 1st to the week of its last day. */
export function monthWeeks(month: string): string[] {
  const first = `${month}-01`;
  const last = addDays(`${addMonths(month, 1)}-01`, -1);
  const weeks: string[] = [];
  for (let monday = mondayOf(first); monday <= last; monday = addDays(monday, 7)) weeks.push(monday);
  return weeks;
}

/** The days of a month, from its 1st. */
export function monthDays(month: string): string[] {
  const days: string[] = [];
  for (let day = `${month}-01`; day.startsWith(month); day = addDays(day, 1)) days.push(day);
  return days;
}

/** The seven days of the week that starts on `monday`. */
export function weekDays(monday: string): string[] {
  return [0, 1, 2, 3, 4, 5, 6].map((offset) => addDays(monday, offset));
}

export function monthTitle(month: string): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return `${MONTHS[index - 1]} ${year}`;
}

/** `4 – 10 January 2027`, or across months `28 December 2026 – 3 January 2027`. */
export function weekTitle(monday: string): string {
  const sunday = addDays(monday, 6);
  const [a, b] = [toDate(monday), toDate(sunday)];
  const long = (date: Date) => `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
  if (a.getUTCMonth() === b.getUTCMonth()) return `${a.getUTCDate()} – ${long(b)}`;
  return `${a.getUTCFullYear() === b.getUTCFullYear() ? `${a.getUTCDate()} ${MONTHS[a.getUTCMonth()]}` : long(a)} – ${long(b)}`;
}

export function dayOfMonth(day: string): number {
  return Number(day.slice(8, 10));
}

/**
 * The years a page can show: four digits whose weeks and months stay four-digit years (Date reads
 * years below 100 as 19xx, and writes those past 9999 with a sign), so day strings compare as days.
 */
const SHOWN_YEAR = /^(1\d{3}|[2-8]\d{3}|9[0-8]\d{2}|99[0-8]\d)-/;

/** A day the page can show: a real `YYYY-MM-DD` date in those years. */
export function isShownDay(text: string): boolean {
  return SHOWN_YEAR.test(text) && isCivilDay(text);
}

export function isMonth(text: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(text) && SHOWN_YEAR.test(text);
}
