import { describe, expect, it } from 'vitest';
import type { CalendarPost } from '../../src/calendar/model.js';
import { renderCalendarPage } from '../../src/calendar/page.js';
import { desired, shape } from '../helpers/fixtures.js';
import { calendarFor } from './fixtures.js';

function islands(html: string): { first: CalendarPost[]; dayCounts: Record<string, number>; rest: CalendarPost[] } {
  const island = (id: string) => JSON.parse(new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`, 's').exec(html)![1]!) as unknown;
  const { posts, dayCounts } = island('calendar-data') as { posts: CalendarPost[]; dayCounts: Record<string, number> };
  const rest = [...html.matchAll(/<script type="application\/json" id="calendar-rest-\d+">(.*?)<\/script>/gs)].flatMap((match) => JSON.parse(match[1]!) as CalendarPost[]);
  return { first: posts, dayCounts, rest };
}

describe('the calendar page', () => {
  it('holds the posts its first view draws before its script and every other post after it', () => {
    const model = calendarFor({
      posts: [
        // The grid of January 2027 runs from Monday 28 December 2026 to Sunday 31 January 2027.
        desired('jan-15', shape({ scheduledAt: '2027-01-15T09:00:00.000Z' })),
        // Six on one day: a cell draws four at most (three and "+ 3 more").
        ...[15, 14, 13, 12, 11, 10].map((hour) => desired(`jan-20-${hour}`, shape({ scheduledAt: `2027-01-20T${hour}:00:00.000Z` }))),
        desired('jan-31', shape({ scheduledAt: '2027-01-31T09:00:00.000Z' })),
        desired('feb-01', shape({ scheduledAt: '2027-02-01T09:00:00.000Z' })),
        ...Array.from({ length: 45 }, (_, i) => desired(`draft-${String(i).padStart(2, '0')}`, shape())),
      ],
      range: { from: '2027-01-01T00:00:00.000Z', to: null },
    });
    expect(model.initial.month).toBe('2027-01');
    const html = String(renderCalendarPage(model));
    const { first, dayCounts, rest } = islands(html);
    const drafts = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `draft-${String(from + i).padStart(2, '0')}`);
    expect(first.map((post) => post.key)).toEqual(['jan-15', 'jan-20-10', 'jan-20-11', 'jan-20-12', 'jan-20-13', 'jan-31', ...drafts(0, 40)]);
    expect(dayCounts).toEqual({ '2027-01-15': 1, '2027-01-20': 6, '2027-01-31': 1 });
    expect(rest.map((post) => post.key)).toEqual(['jan-20-14', 'jan-20-15', 'feb-01', ...drafts(40, 45)]);
    expect(html.indexOf('id="calendar-data"')).toBeLessThan(html.indexOf('<script>'));
    expect(html.indexOf('<script>')).toBeLessThan(html.indexOf('id="calendar-rest-0"'));
    expect(model.totals).toEqual({ scheduled: 9, unscheduled: 45, ready: 45 });
  });
});
