import type { CalendarModel, CalendarPost } from './model.js';

/**
 * What an open page of `watch --calendar` gets after a save when it holds the calendar before
 * (`base`): the calendar without its posts, the order of every post, and in full only the posts
 * new or changed since. A calendar of 10,000 posts is megabytes; a save changes one post.
 */
export interface PostsDelta {
  /** The version this delta applies to; a page at another version asks for the whole calendar. */
  base: number;
  calendar: Omit<CalendarModel, 'posts'>;
  /** Every post's key, in the calendar's order. */
  order: string[];
  changed: CalendarPost[];
}

/**
 * The calendars of one `watch --calendar`, numbered, and the server-sent events that bring each
 * to an open page: `calendar` (the whole calendar, to a page that holds another version or none)
 * and `posts` (a PostsDelta from the version before). Each event's `id` is its version, which a
 * reconnecting page sends back (Last-Event-ID).
 */
export class CalendarVersions {
  #version = 0;
  #model: CalendarModel | null = null;
  /** The posts of the latest calendar, by key: what the next delta is worked out against. */
  #posts = new Map<string, CalendarPost>();

  get version(): number {
    return this.#version;
  }

  /**
   * Takes the next calendar; returns the event that brings it to a page holding the one before,
   * or null when no page is open to get it (`wanted` false): the calendar is then only numbered,
   * with nothing compared or serialized.
   */
  next(model: CalendarModel, options: { wanted: boolean }): string | null {
    const posts = new Map(model.posts.map((post) => [post.key, post]));
    const before = this.#model === null ? null : this.#posts;
    this.#version += 1;
    this.#model = model;
    this.#posts = posts;
    if (!options.wanted) return null;
    // A key twice (never made by buildCalendarModel) could not be put back in order from a delta.
    if (before === null || posts.size !== model.posts.length) return this.whole();
    const changed = model.posts.filter((post) => !sameJson(post, before.get(post.key)));
    const { posts: all, ...calendar } = model;
    const delta: PostsDelta = { base: this.#version - 1, calendar, order: all.map((post) => post.key), changed };
    return sseEvent('posts', this.#version, JSON.stringify(delta));
  }

  /** The whole latest calendar as an event; nothing before the first. */
  whole(): string {
    return this.#model === null ? '' : sseEvent('calendar', this.#version, JSON.stringify(this.#model));
  }
}

/**
 * Whether two JSON values are equal. Most posts of two calendars a save apart share their parts
 * (the same card, the same remote post): equal references end the comparison at once, which
 * makes comparing 10,000 posts much cheaper than serializing them.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  if (Array.isArray(b)) return false;
  // Own keys with a value (JSON leaves out the undefined ones), compared both ways by count.
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let keys = 0;
  for (const key of Object.keys(left)) {
    if (left[key] === undefined) continue;
    keys++;
    if (!sameJson(left[key], right[key])) return false;
  }
  for (const key of Object.keys(right)) if (right[key] !== undefined) keys--;
  return keys === 0;
}

function sseEvent(name: string, id: number, data: string): string {
  return `event: ${name}\nid: ${id}\ndata: ${data}\n\n`;
}
