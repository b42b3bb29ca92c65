import type { SlotTable, WeeklySlot } from '../config/slots-section.js';
import { addDays, instantAt, isoWeekday, wallMomentOf, type WallMoment } from '../zoned-time/index.js';

/** One slot on one date: its instant, its wall time and the slot. */
export interface SlotTime {
  instantMs: number;
  wall: WallMoment;
  slot: WeeklySlot;
}

/**
 * The slot times every one of `accountIds` has (the slots they share), after `afterMs`, in time
 * order, for `days` days from that day on the project's clock. A slot whose wall time does not
 * exist that day (a DST gap) is not there that day; in a fall-back overlap it is the earlier
 * instant.
 */
export function* sharedSlotTimes(table: SlotTable, accountIds: readonly string[], options: { afterMs: number; days: number; timezone: string }): Generator<SlotTime> {
  const lists = accountIds.map((id) => table[id] ?? []);
  const shared = lists.reduce((common, list) => common.filter((slot) => list.some((other) => other.weekday === slot.weekday && other.minute === slot.minute)));
  if (shared.length === 0) return;
  const first = wallMomentOf(options.afterMs, options.timezone).date;
  for (let day = 0; day <= options.days; day++) {
    const date = addDays(first, day);
    const weekday = isoWeekday(date);
    for (const slot of shared) {
      if (slot.weekday !== weekday) continue;
      const wall = { date, minute: slot.minute };
      const { instantMs, shifted } = instantAt(wall, options.timezone);
      if (!shifted && instantMs > options.afterMs) yield { instantMs, wall, slot };
    }
  }
}

/** Whether an instant is, on the project's clock, one of the slots of any of these accounts. */
export function isSlotOf(table: SlotTable, accountIds: readonly string[], instantMs: number, timezone: string): boolean {
  const wall = wallMomentOf(instantMs, timezone);
  const weekday = isoWeekday(wall.date);
  return accountIds.some((id) => (table[id] ?? []).some((slot) => slot.weekday === weekday && slot.minute === wall.minute));
}

/**
 * The slot times of one set of accounts, listed as far as asked for, with a cursor: the first
 * time not yet found taken. A slot taken or breaking a rule for these accounts stays so (posts
 * are only ever added), so the next post on the same accounts starts looking at the cursor.
 */
export class SlotQueue {
  private readonly times: SlotTime[] = [];
  private readonly source: Iterator<SlotTime>;
  private cursor = 0;

  constructor(source: Iterable<SlotTime>) {
    this.source = source[Symbol.iterator]();
  }

  /** The first time from the cursor on that `fits`, moving the cursor up to it; undefined when none is left. */
  first(fits: (time: SlotTime) => boolean): SlotTime | undefined {
    for (; ; this.cursor++) {
      if (this.cursor === this.times.length) {
        const next = this.source.next();
        if (next.done === true) return undefined;
        this.times.push(next.value);
      }
      const time = this.times[this.cursor]!;
      if (fits(time)) return time;
    }
  }
}
