import type { SlotTable, WeeklySlot } from '../config/slots-section.js';
import { addDays, instantAt, isoWeekday, wallMomentOf } from '../zoned-time/index.js';

/** One slot on one date: its instant and how it is written (`Mon 09:00`). */
export interface SlotTime {
  instantMs: number;
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
      const { instantMs, shifted } = instantAt({ date, minute: slot.minute }, options.timezone);
      if (!shifted && instantMs > options.afterMs) yield { instantMs, slot };
    }
  }
}

/** Whether an instant is, on the project's clock, one of the slots of any of these accounts. */
export function isSlotOf(table: SlotTable, accountIds: readonly string[], instantMs: number, timezone: string): boolean {
  const wall = wallMomentOf(instantMs, timezone);
  const weekday = isoWeekday(wall.date);
  return accountIds.some((id) => (table[id] ?? []).some((slot) => slot.weekday === weekday && slot.minute === wall.minute));
}
