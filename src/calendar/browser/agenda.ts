import { card } from './card.js';
import { dayTitle } from './dates.js';
import { h } from './dom.js';
import { freeSlot } from './free-slots.js';
import { freeOn, type ViewContext } from './views.js';

/**
 * The calendar of a narrow screen: the days of the month or week on screen, one under the other,
 * each with its cards (the same plan tags, and the striped card of a slot a post leaves) and its
 * open slots. Days with neither are left out, but today.
 */
export function agendaView(days: readonly string[], context: ViewContext, period: 'month' | 'week'): HTMLElement {
  const sections = days.flatMap((day) => {
    const placed = context.posts.on(day, context.shown);
    const free = freeOn(day, placed, context);
    if (placed.length === 0 && free.length === 0 && day !== context.today) return [];
    return [
      h(
        'li',
        { class: `agenda-day${day === context.today ? ' today' : ''}`, 'data-day': day, 'aria-label': dayTitle(day) },
        h('h3', null, dayTitle(day), day === context.today ? h('small', null, ' · today') : null),
        placed.map((entry) => card(entry, { accounts: context.accounts, day, onOpen: context.onOpen })),
        free.map((slot) => freeSlot(slot, context.accounts)),
      ),
    ];
  });
  return h('ul', { class: 'agenda', 'aria-label': `Posts day by day` }, sections.length === 0 ? h('li', { class: 'empty' }, `No posts this ${period}.`) : sections);
}
