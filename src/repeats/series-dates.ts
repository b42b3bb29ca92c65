import { addDays, clampedDayOfMonth, compareCivilDates, isoWeekday, monthNumber, weekStart, type CivilDate } from '../zoned-time/index.js';
import type { RepeatSpec } from './repeat-spec.js';

/**
 * The dates of a repeat from its first date on, in order, without end (the caller stops): every
 * `interval` days; every `interval` weeks on the `on` weekdays (weeks counted from the first
 * date's Monday); every `interval` months on the `on` days (a day a month lacks is its last day).
 * Only dates on or after `first` come out.
 */
export function* seriesDates(spec: Pick<RepeatSpec, 'interval' | 'unit' | 'on'>, first: CivilDate): Generator<CivilDate> {
  for (let period = 0; ; period++) {
    for (const date of datesOfPeriod(spec, first, period)) if (compareCivilDates(date, first) >= 0) yield date;
  }
}

function datesOfPeriod(spec: Pick<RepeatSpec, 'interval' | 'unit' | 'on'>, first: CivilDate, period: number): CivilDate[] {
  switch (spec.unit) {
    case 'day':
      return [addDays(first, period * spec.interval)];
    case 'week': {
      const monday = addDays(weekStart(first), period * spec.interval * 7);
      return (spec.on ?? [isoWeekday(first)]).map((weekday) => addDays(monday, weekday - 1));
    }
    case 'month': {
      const month = monthNumber(first) + period * spec.interval;
      const dates = (spec.on ?? [first.day]).map((day) => clampedDayOfMonth(month, day));
      // Days 30 and 31 are both the 28th in February: once.
      return dates.filter((date, index) => index === 0 || compareCivilDates(date, dates[index - 1]!) !== 0);
    }
  }
}
