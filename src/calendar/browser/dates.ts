/**
 * Calendar days as `YYYY-MM-DD` strings. Posts come with their day and time in the project's time
 * zone already worked out (server side), so the page only counts days: UTC arithmetic on dates,
 * where no day is 23 or 25 hours long.
 */
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const toDate = (day: string) => new Date(`${day}T00:00:00Z`);
const toDay = (date: Date) => date.toISOString().slice(0, 10);

export function addDays(day: string, days: number): string {
  const date = toDate(day);
  date.setUTCDate(date.getUTCDate() + days);
  return toDay(date);
}

/** The ISO weekday of a day: 1 = Monday … 7 = Sunday. */
export function isoWeekday(day: string): number {
  return ((toDate(day).getUTCDay() + 6) % 7) + 1;
}

export function mondayOf(day: string): string {
  return addDays(day, 1 - isoWeekday(day));
}

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

/** `Mon 4 Jan 2027`. */
export function dayTitle(day: string): string {
  const date = toDate(day);
  return `${WEEKDAYS[(date.getUTCDay() + 6) % 7]} ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]!.slice(0, 3)} ${date.getUTCFullYear()}`;
}

export function dayOfMonth(day: string): number {
  return Number(day.slice(8, 10));
}

export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = toDate(text);
  return !Number.isNaN(date.getTime()) && toDay(date) === text;
}

export function isMonth(text: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(text);
}
