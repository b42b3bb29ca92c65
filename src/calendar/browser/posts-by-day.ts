import type { CalendarModel, CalendarPost } from '../model.js';

/** A card on a day: the post at its slot, a ghost at the slot it leaves (moved, unscheduled), or a draft at its pencilled time. */
export interface Placed {
  post: CalendarPost;
  ghost: boolean;
  time: string;
  /** A draft at the time its file pencils in: on the day, but taking no slot (it is also in the tray). */
  pencilled?: true;
}

/**
 * The posts of a model by day, each day's cards in time order, and the unscheduled ones. Built
 * once per model (one pass), so drawing a month touches only that month's posts.
 */
export class PostsByDay {
  readonly #days = new Map<string, Placed[]>();
  readonly unscheduled: CalendarPost[] = [];

  constructor(model: CalendarModel<CalendarPost>) {
    for (const post of model.posts) {
      if (post.slot !== null) this.#add(post.slot.day, { post, ghost: false, time: post.slot.time });
      else this.unscheduled.push(post);
      if (post.slot === null && post.pencilled !== undefined) this.#add(post.pencilled.day, { post, ghost: false, time: post.pencilled.time, pencilled: true });
      if (post.previous !== null) this.#add(post.previous.day, { post, ghost: true, time: post.previous.time });
    }
    for (const placed of this.#days.values()) placed.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  }

  /** The day's cards whose post targets a shown account (or none at all). */
  on(day: string, shown: (post: CalendarPost) => boolean): Placed[] {
    return (this.#days.get(day) ?? []).filter((placed) => shown(placed.post));
  }

  #add(day: string, placed: Placed): void {
    const list = this.#days.get(day);
    if (list === undefined) this.#days.set(day, [placed]);
    else list.push(placed);
  }
}
