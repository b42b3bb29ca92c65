import { CALENDAR_CLIENT } from '../generated/calendar-client.js';
import { html, jsonForScript, scriptElement, trusted } from './escape.js';
import type { CalendarModel, CalendarPost } from './model.js';
import { mondayOf } from './slots.js';
import { PAGE_STYLE } from './page-style.js';

export interface PageOptions {
  /** `watch --calendar`: the URL of the server-sent events that bring each new calendar. */
  events?: string;
}

/**
 * The calendar as one self-contained HTML document: style, data and script inline, nothing
 * fetched (it works from file:// and as a workflow artifact). The script draws the visible month
 * or week from the data; the markup here is the frame it draws into.
 *
 * The data comes in two parts: the posts of the first view (its month's grid, and the first of
 * the unscheduled ones), then the script, then every other post. The browser runs the script,
 * and paints the first view, as soon as it has read the first part; however many posts the
 * calendar has, the rest is read after that, and the page completes its data from it.
 */
export function renderCalendarPage(model: CalendarModel, options: PageOptions = {}): string {
  const { first, rest } = splitForFirstView(model);
  const title = `Content calendar · ${model.target.replace(/^Target: /, '')}`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="generator" content="postsync">
<title>${title}</title>
<style>${trusted(PAGE_STYLE)}</style>
</head>
<body${options.events === undefined ? '' : html` data-live="${options.events}"`}>
<header class="top" id="top"><h1>Content calendar</h1></header>
<nav class="toolbar" id="toolbar" aria-label="Calendar navigation"></nav>
<main class="layout"><section class="view" id="view" aria-live="polite"></section><aside class="side" id="side"></aside></main>
<aside class="details" id="details" role="dialog" aria-labelledby="details-title" tabindex="-1" hidden></aside>
<noscript><p class="banner">This page draws the calendar with JavaScript, which is turned off. Its data is in the page's source.</p></noscript>
${scriptElement('application/json', 'calendar-data', jsonForScript({ ...model, posts: first }))}
${scriptElement(null, null, trusted(CALENDAR_CLIENT))}
${scriptElement('application/json', 'calendar-rest', jsonForScript(rest))}
</body>
</html>
`.toString();
}

/** Unscheduled posts the tray lists first (the page's script shows the same number). */
const TRAY_FIRST = 40;

/** The posts the first view shows (see renderCalendarPage), and the others, each in model order. */
function splitForFirstView(model: CalendarModel): { first: CalendarPost[]; rest: CalendarPost[] } {
  const start = mondayOf(`${model.initial.month}-01`);
  const end = lastDayOfWeek(lastDayOfMonth(model.initial.month));
  const shown = (day: string | undefined) => day !== undefined && day >= start && day <= end;
  const first: CalendarPost[] = [];
  const rest: CalendarPost[] = [];
  let tray = 0;
  for (const post of model.posts) {
    const inTray = post.slot === null && tray++ < TRAY_FIRST;
    (inTray || shown(post.slot?.day) || shown(post.previous?.day) ? first : rest).push(post);
  }
  return { first, rest };
}

function lastDayOfMonth(month: string): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, index, 0)).toISOString().slice(0, 10);
}

function lastDayOfWeek(day: string): string {
  const sunday = new Date(`${mondayOf(day)}T00:00:00Z`);
  sunday.setUTCDate(sunday.getUTCDate() + 6);
  return sunday.toISOString().slice(0, 10);
}
