import { describe, expect, it } from 'vitest';
import type { CalendarPost } from '../../src/calendar/model.js';
import { renderCalendarPage } from '../../src/calendar/page.js';
import { calendarFor, desired, shape } from './fixtures.js';

function islands(html: string): { first: CalendarPost[]; rest: CalendarPost[] } {
  const island = (id: string) => JSON.parse(new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`, 's').exec(html)![1]!) as unknown;
  return { first: (island('calendar-data') as { posts: CalendarPost[] }).posts, rest: island('calendar-rest') as CalendarPost[] };
}

describe('the calendar page', () => {
  it('holds the first view\'s posts before its script and every other post after it', () => {
    const model = calendarFor({
      posts: [
        // The grid of January 2027 runs from Monday 28 December 2026 to Sunday 31 January 2027.
        desired('jan-15', shape({ scheduledAt: '2027-01-15T09:00:00.000Z' })),
        desired('jan-31', shape({ scheduledAt: '2027-01-31T09:00:00.000Z' })),
        desired('feb-01', shape({ scheduledAt: '2027-02-01T09:00:00.000Z' })),
        ...Array.from({ length: 45 }, (_, i) => desired(`draft-${String(i).padStart(2, '0')}`, shape())),
      ],
      range: { from: '2027-01-01T00:00:00.000Z', to: null },
    });
    expect(model.initial.month).toBe('2027-01');
    const html = renderCalendarPage(model);
    const { first, rest } = islands(html);
    expect(first.map((post) => post.key)).toEqual(['jan-15', 'jan-31', ...Array.from({ length: 40 }, (_, i) => `draft-${String(i).padStart(2, '0')}`)]);
    expect(rest.map((post) => post.key)).toEqual(['feb-01', 'draft-40', 'draft-41', 'draft-42', 'draft-43', 'draft-44']);
    expect(html.indexOf('id="calendar-data"')).toBeLessThan(html.indexOf('<script>'));
    expect(html.indexOf('<script>')).toBeLessThan(html.indexOf('id="calendar-rest"'));
    expect(model.totals).toEqual({ scheduled: 3, unscheduled: 45, ready: 45 });
  });
});
