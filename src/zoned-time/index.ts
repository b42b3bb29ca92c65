/**
 * Calendar time for the schedule policies (house rules, slots, repeats) and the calendar page:
 * civil dates, days as `YYYY-MM-DD` text (the page's script imports those too), wall moments in
 * the project's IANA time zone, and the phrases people write for them.
 *
 * Invariant: everything here is pure and takes the time zone as an argument (from
 * `config.timezone`); nothing reads the machine's local zone or the clock, so the same input
 * gives the same result on every machine. Date arithmetic is done on civil dates (day numbers),
 * and only turned into instants with `instantAt`, which resolves DST gaps and overlaps the way
 * Temporal's "compatible" disambiguation does.
 */
export { addDays, clampedDayOfMonth, compareCivilDates, dayNumber, daysInMonth, formatCivilDate, fromDayNumber, isoWeekday, monthNumber, pad, parseCivilDate, weekStart, type CivilDate } from './civil-date.js';
export { dayTitle, isDay, isoWeek, mondayOf, shiftDay } from './day-strings.js';
export { formatClock, formatDuration, parseClock, parseDuration, parseWeekday, weekdayName, WEEKDAY_NAMES } from './phrases.js';
export { instantAt, parseWallMoment, wallMinutes, wallMomentOf, type WallMoment } from './wall-moment.js';
export { parseScheduledAt, SCHEDULED_AT_FORMATS, type ScheduledAtResult } from './scheduled-at.js';
export { formatOffset, offsetMs, wallTimeIn, type WallTime } from './zone-clock.js';
export { dayText, placedTimeText, timeText } from './time-text.js';
