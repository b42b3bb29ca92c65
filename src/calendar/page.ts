import { CALENDAR_CLIENT } from '../generated/calendar-client.js';
import { html, jsonForScript, scriptElement, trusted, type SafeHtml } from './escape.js';
import { splitForFirstView, type FirstView } from './first-view.js';
import type { CalendarModel } from './model.js';
import { EDIT_STYLE } from './edit-style.js';
import { PAGE_STYLE } from './page-style.js';
import { VIEW_STYLE } from './page-style-views.js';

export interface PageOptions {
  /** `watch --calendar`: the URL of the server-sent events that bring each new calendar. */
  events?: string;
  /** `watch --calendar`: where the page sends its edits of the post files; absent, the page is read-only. */
  edit?: string;
}

/**
 * The calendar as one self-contained HTML document: style, data and script inline, nothing
 * fetched (it works from file:// and as a workflow artifact). The script draws the visible month
 * or week from the data; the markup here is the frame it draws into.
 *
 * The data comes in two parts: the posts the first view draws (first-view.ts), then the script,
 * then every other post. The browser runs the script, and paints the first view, as soon as it
 * has read the first part; however many posts the calendar has, the rest is read after that,
 * and the page completes its data from it.
 */
export function renderCalendarPage(model: CalendarModel, options: PageOptions = {}): SafeHtml {
  return html`${[...calendarPageParts(model, options)]}`;
}

/**
 * The page of renderCalendarPage in parts, made one at a time: a writer sends each on its way
 * before the next is made, and never holds the whole page (megabytes at 10,000 posts) at once.
 */
export function* calendarPageParts(model: CalendarModel, options: PageOptions = {}): Generator<SafeHtml> {
  const { first, rest } = splitForFirstView(model);
  const title = `Content calendar · ${model.target.replace(/^Target: /, '')}`;
  yield html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="generator" content="postsync">
<link rel="icon" href="${trusted(ICON)}">
<title>${title}</title>
<style>${trusted(PAGE_STYLE + VIEW_STYLE)}</style>${options.edit === undefined ? '' : html`<style>${trusted(EDIT_STYLE)}</style>`}
</head>
<body${options.events === undefined ? '' : html` data-live="${options.events}"`}${options.edit === undefined ? '' : html` data-edit="${options.edit}"`}>
<a class="skip-link" href="#view">Skip to the calendar</a>
<header class="top" id="top"><h1>Content calendar</h1></header>
<nav class="toolbar" id="toolbar" aria-label="Calendar navigation"></nav>
<div class="filters" id="filters" role="search" aria-label="Filters"></div>
<main class="layout"><section class="view" id="view" aria-live="polite" aria-labelledby="view-title" tabindex="-1"></section><aside class="side" id="side"></aside></main>
<div class="details" id="details" role="dialog" aria-labelledby="details-title" tabindex="-1" hidden></div>
<noscript><p class="banner">This page draws the calendar with JavaScript, which is turned off. Its data is in the page's source.</p></noscript>
${scriptElement('application/json', 'calendar-data', firstViewJson(first))}
${scriptElement(null, null, trusted(CALENDAR_CLIENT))}
`;
  for (let start = 0, index = 0; start < rest.length; start += REST_CHUNK, index++) {
    yield html`${scriptElement('application/json', `calendar-rest-${index}`, jsonForScript(rest.slice(start, start + REST_CHUNK)))}\n`;
  }
  yield html`</body>\n</html>\n`;
}

/** The page's icon, inline: a written page fetches nothing, and a served one makes no request without its token for it. */
const ICON = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect x="1" y="2" width="14" height="13" rx="2" fill="#2454c7"/><rect x="3" y="6" width="10" height="7" fill="#fff"/></svg>')}`;

/**
 * Posts per element of the rest: the browser paints the first view between two elements, while
 * it is still reading the others (one element of many megabytes would hold the paint back).
 */
const REST_CHUNK = 500;

/** The first part of the data: the calendar and its first view's posts, which come last. */
function firstViewJson(first: FirstView): SafeHtml {
  const { posts, ...calendar } = first;
  return jsonForScript({ ...calendar, posts });
}
