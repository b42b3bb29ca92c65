import { parseCivilDate } from '../zoned-time/civil-date.js';
import { formatOffset, offsetMs } from '../zoned-time/zone-clock.js';
import { placedTimeText } from '../zoned-time/time-text.js';
import type { Slot } from './model.js';

/** An instant placed in the zone: its day, time and offset there; null for no time or not a time. */
export type Placer = (instant: string | null | undefined) => Slot | null;

const HOUR = 3_600_000;

/**
 * Places instants in `timeZone`, many of them cheaply: the zone's offset is asked of Intl once per hour of
 * UTC that has posts (when the offset is the same at both ends of that hour, it holds throughout,
 * as no zone changes its offset twice in an hour), and the wall time is then plain arithmetic.
 */
export function zonePlacer(timeZone: string): Placer {
  const offsets = new Map<number, number | null>();
  const offsetAt = (ms: number): number => {
    const hour = Math.floor(ms / HOUR);
    let offset = offsets.get(hour);
    if (offset === undefined) {
      const start = offsetMs(hour * HOUR, timeZone);
      offset = start === offsetMs((hour + 1) * HOUR - 1, timeZone) ? start : null;
      offsets.set(hour, offset);
    }
    return offset ?? offsetMs(ms, timeZone);
  };
  return (instant) => {
    if (instant === null || instant === undefined) return null;
    const ms = Date.parse(instant);
    if (Number.isNaN(ms)) return null;
    const offset = offsetAt(ms);
    const wall = new Date(ms + offset).toISOString();
    return { at: new Date(ms).toISOString(), day: wall.slice(0, 10), time: wall.slice(11, 16), offset: formatOffset(offset) };
  };
}

/** A slot for people, as every time is shown: `Mon 4 Jan 2027, 09:00 (+01:00)`. */
export function slotText(slot: Slot): string {
  const date = parseCivilDate(slot.day);
  return date === undefined ? slot.at : placedTimeText({ date, clock: slot.time, offset: slot.offset });
}
