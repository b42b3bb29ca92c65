import type { CalendarModel, CalendarPost } from './model.js';
import { mondayOf, shiftDay } from '../zoned-time/index.js';

/**
 * The first part of a page's data (see renderCalendarPage): the calendar with only the posts its
 * first view draws, and how many posts each day of that view has in all (for "+ n more").
 */
export type FirstView<P = CalendarPost> = CalendarModel<P> & { dayCounts: Record<string, number> };

/** Cards a month cell draws at most (the page's script draws the same number: browser/views.ts). */
const CELL_CARDS = 4;
/** Unscheduled posts the tray lists first (browser/side.ts). */
const TRAY_FIRST = 40;

/**
 * Splits a calendar for a page: the posts the first view draws (the first cards of each day of
 * its month's grid, the first unscheduled posts), and every other post, each in model order.
 */
export function splitForFirstView(model: CalendarModel): { first: FirstView; rest: CalendarPost[] } {
  const start = mondayOf(`${model.initial.month}-01`);
  const end = sundayAfter(lastDayOfMonth(model.initial.month));
  const days = new Map<string, { post: CalendarPost; time: string }[]>();
  const place = (post: CalendarPost, day: string | undefined, time: string | undefined) => {
    if (day === undefined || time === undefined || day < start || day > end) return;
    const placed = days.get(day);
    if (placed === undefined) days.set(day, [{ post, time }]);
    else placed.push({ post, time });
  };
  for (const post of model.posts) {
    place(post, post.slot?.day, post.slot?.time);
    place(post, post.previous?.day, post.previous?.time);
  }
  const drawn = new Set<CalendarPost>(model.posts.filter((post) => post.slot === null).slice(0, TRAY_FIRST));
  const dayCounts: Record<string, number> = {};
  for (const [day, placed] of days) {
    dayCounts[day] = placed.length;
    for (const { post } of placed.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0)).slice(0, CELL_CARDS)) drawn.add(post);
  }
  return {
    first: { ...model, posts: model.posts.filter((post) => drawn.has(post)), dayCounts },
    rest: model.posts.filter((post) => !drawn.has(post)),
  };
}

function lastDayOfMonth(month: string): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, index, 0)).toISOString().slice(0, 10);
}

function sundayAfter(day: string): string {
  return shiftDay(mondayOf(day), 6);
}
