import type { CalendarModel, CalendarPost } from '../model.js';
import { timeText } from '../../zoned-time/time-text.js';
import { h, plural, type Child } from './dom.js';

/** The page's top bar: where the data comes from and the time zone. */
export function header(model: CalendarModel<CalendarPost>, options: { live: boolean; updatedAt: Date | null }): Child[] {
  // On the project's clock, as every time of the page.
  const generated = timeText(model.generatedAt, model.timezone);
  return [
    h('div', { class: 'brand' }, h('span', { class: 'logo', 'aria-hidden': 'true' }, '▦'), h('h1', null, 'Content calendar')),
    h(
      'div',
      { class: 'meta' },
      h('span', null, model.target.replace(/^Target: /, '')),
      h('span', null, 'Times in ', h('b', null, model.timezone)),
      h('span', null, `${plural(model.totals.scheduled, 'scheduled post')}, ${plural(model.totals.unscheduled, 'unscheduled post')}`),
      h('span', null, options.updatedAt === null ? `Made ${generated}` : `Updated ${timeText(options.updatedAt.getTime(), model.timezone)}`),
    ),
    options.live ? h('div', { class: 'counts' }, h('span', { class: 'live', title: 'This page updates after every save' }, 'live')) : null,
    model.source === 'state' ? h('div', { class: 'banner', style: 'flex-basis: 100%; margin: 0' }, `The API was not reached${model.offlineReason === undefined ? '' : ` (${model.offlineReason})`}: statuses come from the state file, and the plan is not shown.`) : null,
    model.range.from === null && model.range.to === null ? null : h('div', { class: 'meta', style: 'flex-basis: 100%' }, `Only posts from ${model.range.from ?? 'the start'} to ${model.range.to ?? 'the end'} (and every unscheduled post).`),
  ];
}
