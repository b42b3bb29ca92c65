import type { CalendarAccount, CalendarSlot } from '../model.js';
import { accountDot } from './card.js';
import { isoWeekday } from './dates.js';
import { h } from './dom.js';
import type { Placed } from './posts-by-day.js';

/** What placing free slots on a day needs. */
export interface FreeSlotContext {
  slots: readonly CalendarSlot[];
  accounts: ReadonlyMap<string, CalendarAccount>;
  today: string;
  /** Accounts whose slots are not shown (the filter hides them). */
  hidden: ReadonlySet<string>;
}

/**
 * The slots of `slots:` open on a day: those of its weekday, from today on, that no post of the
 * account takes (a post at the slot's time; a ghost, the slot a post leaves, frees it), by time.
 */
export function freeSlotsOn(day: string, placed: readonly Placed[], context: FreeSlotContext): CalendarSlot[] {
  if (day < context.today || context.slots.length === 0) return [];
  const weekday = isoWeekday(day);
  const taken = new Set(placed.filter((entry) => !entry.ghost).flatMap((entry) => entry.post.targets.map((target) => `${target.account} ${entry.time}`)));
  return context.slots
    .filter((slot) => slot.weekday === weekday && !context.hidden.has(slot.account) && !taken.has(`${slot.account} ${slot.time}`))
    .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
}

/** An open place: the slot's time and account, in the account's colour. */
export function freeSlot(slot: CalendarSlot, accounts: ReadonlyMap<string, CalendarAccount>): HTMLElement {
  const account = accounts.get(slot.account);
  return h(
    'span',
    { class: 'free-slot', 'data-time': slot.time, 'data-account': slot.account, title: `Free slot of ${account?.label ?? slot.account} at ${slot.time}` },
    accountDot(account),
    h('span', { class: 'free-time' }, slot.time),
    h('span', { class: 'free-word' }, 'free'),
  );
}
