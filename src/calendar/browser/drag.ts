import type { CalendarPost } from '../model.js';
import { addDays, dayTitle } from './dates.js';

/** What moving a card does: the page's editing (editing.ts). */
export interface MoveTarget {
  /** The post a card of the page shows, when it is one a person may move. */
  movable(key: string): CalendarPost | undefined;
  /** Starts reading the post's file (the version the move names), as the drag starts. */
  prepare(post: CalendarPost): void;
  /** Rewrites the post's `scheduledAt` to `at` (`YYYY-MM-DD HH:mm`). */
  move(post: CalendarPost, at: string): void;
  status(message: string): void;
}

const CARD = '.card[data-key]:not([data-ghost])';
const DROP = '.cell[data-day], .slot[data-day]';

/**
 * Moving cards: with the mouse, a card dragged onto a day of the month (same time), an hour of
 * the week (same minutes) or a free slot (its time); with the keyboard, a focused card moved by Shift+←/→ (a day) and
 * Shift+↑/↓ (a week), then Enter to save or Escape to leave it. Listens on the document, so the
 * page's views are drawn as they are and only marked draggable (`drawn`).
 */
export class CardMover {
  readonly #target: MoveTarget;
  #dragged: CalendarPost | null = null;
  #pending: { post: CalendarPost; day: string } | null = null;

  constructor(target: MoveTarget) {
    this.#target = target;
    document.addEventListener('dragstart', (event) => this.#start(event));
    document.addEventListener('dragover', (event) => this.#over(event));
    document.addEventListener('dragleave', (event) => (event.target as Element | null)?.closest?.(DROP)?.classList.remove('drop-here'));
    document.addEventListener('drop', (event) => this.#drop(event));
    document.addEventListener('dragend', () => (this.#dragged = null));
    // Before the page's own keys (which move the view): Shift+arrows on a card are the card's.
    document.addEventListener('keydown', (event) => this.#key(event), { capture: true });
  }

  /** Marks the cards of a freshly drawn view draggable. */
  drawn(root: ParentNode): void {
    for (const card of root.querySelectorAll<HTMLElement>(CARD)) {
      if (this.#target.movable(card.dataset.key!) !== undefined) card.draggable = true;
    }
    this.#pending = null;
  }

  #start(event: DragEvent): void {
    const card = (event.target as Element | null)?.closest?.<HTMLElement>(CARD);
    const post = card === null || card === undefined ? undefined : this.#target.movable(card.dataset.key!);
    if (post === undefined) return;
    this.#dragged = post;
    event.dataTransfer?.setData('text/plain', post.key);
    if (event.dataTransfer !== null) event.dataTransfer.effectAllowed = 'move';
    this.#target.prepare(post);
  }

  #over(event: DragEvent): void {
    const place = (event.target as Element | null)?.closest?.<HTMLElement>(DROP);
    if (this.#dragged === null || place === null || place === undefined) return;
    event.preventDefault();
    if (event.dataTransfer !== null) event.dataTransfer.dropEffect = 'move';
    place.classList.add('drop-here');
  }

  #drop(event: DragEvent): void {
    const place = (event.target as Element | null)?.closest?.<HTMLElement>(DROP);
    const post = this.#dragged;
    this.#dragged = null;
    if (post === null || place === null || place === undefined) return;
    event.preventDefault();
    place.classList.remove('drop-here');
    // Dropped on a free slot: its time.
    const free = (event.target as Element).closest<HTMLElement>('.free-slot')?.dataset.time;
    const at = free === undefined ? wallTime(post, place.dataset.day!, place.dataset.hour) : `${place.dataset.day} ${free}`;
    if (at !== `${post.slot?.day} ${post.slot?.time}`) this.#target.move(post, at);
  }

  #key(event: KeyboardEvent): void {
    if (this.#pending !== null && (event.key === 'Enter' || event.key === 'Escape')) {
      event.preventDefault();
      event.stopImmediatePropagation();
      const { post, day } = this.#pending;
      this.#pending = null;
      if (event.key === 'Escape') return this.#target.status(`${post.key} stays where it is.`);
      return this.#target.move(post, wallTime(post, day, undefined));
    }
    const steps: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };
    const card = (event.target as Element | null)?.closest?.<HTMLElement>(CARD);
    if (!event.shiftKey || steps[event.key] === undefined || card === null || card === undefined) return;
    const held = this.#pending !== null && this.#pending.post.key === card.dataset.key ? this.#pending : null;
    const post = held?.post ?? this.#target.movable(card.dataset.key!);
    if (post === undefined || post.slot === null) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (held === null) this.#target.prepare(post);
    const day = addDays(held?.day ?? post.slot.day, steps[event.key]!);
    this.#pending = { post, day };
    card.dataset.movingTo = day;
    this.#target.status(`Move ${post.key} to ${dayTitle(day)}, ${post.slot.time}: Enter saves it to the file, Escape leaves it.`);
  }
}

/** The wall time a post dropped on `day` (and `hour`, in the week) gets: its own time, or minutes, kept. */
function wallTime(post: CalendarPost, day: string, hour: string | undefined): string {
  const time = post.slot?.time ?? '09:00';
  return `${day} ${hour === undefined ? time : `${hour.padStart(2, '0')}:${time.slice(3)}`}`;
}
