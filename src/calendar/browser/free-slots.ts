import type { CalendarAccount, CalendarPost, CalendarSlot } from '../model.js';
import { accountDot } from './card.js';
import { addDays, weekdayOf } from './dates.js';
import { h } from './dom.js';
import type { Placed, PostsByDay } from './posts-by-day.js';

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
 * account takes (a post at the slot's time; a ghost, the slot a post leaves, and a draft's pencilled time do not), by time.
 */
export function freeSlotsOn(day: string, placed: readonly Placed[], context: FreeSlotContext): CalendarSlot[] {
  if (day < context.today || context.slots.length === 0) return [];
  const weekday = weekdayOf(day);
  const taken = new Set(placed.filter((entry) => !entry.ghost && entry.pencilled !== true).flatMap((entry) => entry.post.targets.map((target) => `${target.account} ${entry.time}`)));
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

/** How far ahead a duplicate looks for an open slot of its accounts (eight weeks). */
const FREE_SLOT_DAYS = 56;

/** The first open slot of one of a post's accounts after its time (from today for a draft or a past post), in the next weeks: `YYYY-MM-DD HH:mm`. */
export function freeSlotAfter(post: CalendarPost, posts: PostsByDay, context: FreeSlotContext): string | undefined {
  const accounts = new Set(post.targets.map((target) => target.account));
  const from = post.slot === null || post.slot.day < context.today ? { day: context.today, time: '' } : post.slot;
  const own = { ...context, slots: context.slots.filter((slot) => accounts.has(slot.account)) };
  for (let day = from.day, count = 0; count < FREE_SLOT_DAYS; day = addDays(day, 1), count++) {
    const slot = freeSlotsOn(day, posts.on(day, () => true), own).find((free) => day > from.day || free.time > from.time);
    if (slot !== undefined) return `${day} ${slot.time}`;
  }
  return undefined;
}
