import type { CalendarAccount, CalendarPost } from '../model.js';
import { card } from './card.js';
import { dayOfMonth, monthWeeks, weekDays, WEEKDAYS } from './dates.js';
import { h } from './dom.js';
import { freeSlot, freeSlotsOn, type FreeSlotContext } from './free-slots.js';
import type { Placed, PostsByDay } from './posts-by-day.js';

/** What drawing a view needs besides the days it shows. */
export interface ViewContext {
  posts: PostsByDay;
  accounts: ReadonlyMap<string, CalendarAccount>;
  today: string;
  shown: (post: CalendarPost) => boolean;
  /** How many cards a day has in all, when the page holds only some of them yet. */
  countOn: (day: string) => number | undefined;
  onOpen: (post: CalendarPost) => void;
  /** "+ n more" in a month cell: that day's week. */
  onMore: (day: string) => void;
  /** The slots of `slots:` to show as open places; null when the filter narrows the posts shown. */
  free: FreeSlotContext | null;
}

/** The open slots of a day as the view's context has them. */
export function freeOn(day: string, placed: readonly Placed[], context: ViewContext) {
  return context.free === null ? [] : freeSlotsOn(day, placed, context.free);
}

/** Cards a month cell shows before "+ n more" (first-view.ts sends the page as many first). */
const CELL_CARDS = 4;

/** A month: its weeks, Monday first; days of the months around it are dimmed. */
export function monthView(month: string, context: ViewContext): HTMLElement {
  const rows = monthWeeks(month).map((monday) =>
    h('div', { class: 'month-row', role: 'row' }, weekDays(monday).map((day) => monthCell(day, month, context))),
  );
  return h('div', { class: 'month', role: 'grid', 'aria-label': month }, h('div', { class: 'weekdays', role: 'row' }, WEEKDAYS.map((name) => h('div', { role: 'columnheader' }, name))), rows);
}

function monthCell(day: string, month: string, context: ViewContext): HTMLElement {
  const placed = context.posts.on(day, context.shown);
  const total = context.countOn(day) ?? placed.length;
  const visible = total > CELL_CARDS ? placed.slice(0, CELL_CARDS - 1) : placed;
  const classes = ['cell', day.startsWith(month) ? '' : 'other', day === context.today ? 'today' : ''].filter(Boolean).join(' ');
  return h(
    'div',
    { class: classes, role: 'gridcell', 'data-day': day },
    h('div', { class: 'day-num' }, String(dayOfMonth(day))),
    visible.map((entry) => card(entry, { accounts: context.accounts, day, onOpen: context.onOpen })),
    total > visible.length ? h('button', { class: 'more', type: 'button', onclick: () => context.onMore(day) }, `+ ${total - visible.length} more`) : null,
    freeOn(day, placed, context).map((slot) => freeSlot(slot, context.accounts)),
  );
}

/**
 * A week: a row per hour that has posts (at least 08:00 to 18:00), a column per day, each card in
 * its hour: two posts in the same hour sit in the same box.
 */
export function weekView(monday: string, context: ViewContext): HTMLElement {
  const days = weekDays(monday);
  const byDay = days.map((day) => context.posts.on(day, context.shown));
  const hours = new Set<number>();
  for (let hour = 8; hour <= 18; hour++) hours.add(hour);
  for (const placed of byDay.flat()) hours.add(Number(placed.time.slice(0, 2)));
  const free = days.map((day, index) => freeOn(day, byDay[index]!, context));
  for (const slot of free.flat()) hours.add(Number(slot.time.slice(0, 2)));
  const rows = [...hours].sort((a, b) => a - b);
  const head = days.map((day, index) =>
    h('div', { class: `head${day === context.today ? ' today' : ''}` }, `${WEEKDAYS[index]} `, h('b', null, String(dayOfMonth(day)))),
  );
  const cells = rows.flatMap((hour) => [
    h('div', { class: 'hour' }, `${String(hour).padStart(2, '0')}:00`),
    ...days.map((day, index) => {
      const inHour = byDay[index]!.filter((placed: Placed) => Number(placed.time.slice(0, 2)) === hour);
      const freeInHour = free[index]!.filter((slot) => Number(slot.time.slice(0, 2)) === hour);
      return h(
        'div',
        { class: `slot${day === context.today ? ' today' : ''}`, 'data-day': day, 'data-hour': String(hour) },
        inHour.map((placed) => card(placed, { accounts: context.accounts, day, onOpen: context.onOpen })),
        freeInHour.map((slot) => freeSlot(slot, context.accounts)),
      );
    }),
  ]);
  // One CSS grid of cells, not rows of cells: a group (role=grid would need rows of gridcells).
  return h('div', { class: 'week', role: 'group', 'aria-label': `week of ${monday}` }, h('div', { class: 'head' }), head, cells);
}
