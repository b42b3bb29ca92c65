/**
 * A calendar date with no time zone: what `2027-01-18` means wherever it is read. Arithmetic
 * happens on day numbers (days since 1970-01-01), so it never meets a DST change.
 * Invariant: a CivilDate is always a real date (month 1–12, day within its month).
 */
export interface CivilDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

const DAY_MS = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `2027-01-18` → the date, or undefined when the text is not a real date in that form. */
export function parseCivilDate(text: string): CivilDate | undefined {
  const match = DATE_PATTERN.exec(text.trim());
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

export function formatCivilDate(date: CivilDate): string {
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}

/** Days since 1970-01-01 (negative before). */
export function dayNumber(date: CivilDate): number {
  const ms = new Date(0).setUTCFullYear(date.year, date.month - 1, date.day);
  return Math.round(ms / DAY_MS);
}

export function fromDayNumber(days: number): CivilDate {
  const date = new Date(days * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

export function addDays(date: CivilDate, days: number): CivilDate {
  return fromDayNumber(dayNumber(date) + days);
}

/** ISO weekday: 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: CivilDate): number {
  // 1970-01-01 was a Thursday (4).
  return ((((dayNumber(date) + 3) % 7) + 7) % 7) + 1;
}

/** The Monday that starts the ISO week holding `date`. */
export function weekStart(date: CivilDate): CivilDate {
  return addDays(date, 1 - isoWeekday(date));
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Months since January of year 0: months can then be counted and stepped like days. */
export function monthNumber(date: Pick<CivilDate, 'year' | 'month'>): number {
  return date.year * 12 + (date.month - 1);
}

/** Day `day` of the month `months` (a monthNumber), or the month's last day when it is shorter. */
export function clampedDayOfMonth(months: number, day: number): CivilDate {
  const year = Math.floor(months / 12);
  const month = months - year * 12 + 1;
  return { year, month, day: Math.min(day, daysInMonth(year, month)) };
}

export function compareCivilDates(a: CivilDate, b: CivilDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** A number as at least `width` digits: `pad(9)` is `09`, `pad(7, 3)` is `007`. */
export function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}
