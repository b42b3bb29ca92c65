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
  /** The page's today: a draft moved by keyboard starts there. */
  today(): string;
}

const CARD = '.card[data-key]:not([data-ghost])';
const DROP = '.cell[data-day], .slot[data-day]';

/**
 * Moving cards: with the mouse, a card dragged onto a day of the month (same time), an hour of
 * the week (same minutes) or a free slot (its time), the time it will take shown on the place
 * before the drop; with the keyboard, a focused card (a draft of the tray too: from its pencilled day, else today) moved
 * by Shift+←/→ (a day) and Shift+↑/↓ (a week), then Enter to save or Escape to leave it. Listens on
 * the document, so the page's views are drawn as they are and only marked draggable (`drawn`).
 */
export class CardMover {
  readonly #target: MoveTarget;
  #dragged: CalendarPost | null = null;
  #pending: { post: CalendarPost; day: string } | null = null;
  /** The place the dragged card is over, and the time a drop there gives it. */
  #over: { place: HTMLElement; at: string } | null = null;

  constructor(target: MoveTarget) {
    this.#target = target;
    document.addEventListener('dragstart', (event) => this.#start(event));
    // Entering a place says what a drop there gives at once; dragover keeps saying it (and is what lets the drop happen).
    document.addEventListener('dragenter', (event) => this.#dragOver(event));
    document.addEventListener('dragover', (event) => this.#dragOver(event));
    document.addEventListener('drop', (event) => this.#drop(event));
    document.addEventListener('dragend', () => {
      this.#dragged = null;
      this.#leave();
    });
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

  /** Over a place: it shows the time a drop there gives (a free slot's time, or the post's own), before the drop. */
  #dragOver(event: DragEvent): void {
    const place = (event.target as Element | null)?.closest?.<HTMLElement>(DROP);
    if (this.#dragged === null || place === null || place === undefined) return this.#leave();
    event.preventDefault();
    if (event.dataTransfer !== null) event.dataTransfer.dropEffect = 'move';
    const at = dropTime(this.#dragged, place, event.target as Element);
    if (this.#over?.place === place && this.#over.at === at) return;
    this.#leave();
    this.#over = { place, at };
    place.classList.add('drop-here');
    place.dataset.dropAt = at.slice(11);
    this.#target.status(`Drop ${this.#dragged.key} here: ${dayTitle(at.slice(0, 10))}, ${at.slice(11)}${event.target instanceof Element && event.target.closest('.free-slot') !== null ? ' (the free slot)' : ''}.`);
  }

  #leave(): void {
    if (this.#over === null) return;
    this.#over.place.classList.remove('drop-here');
    delete this.#over.place.dataset.dropAt;
    this.#over = null;
  }

  #drop(event: DragEvent): void {
    const place = (event.target as Element | null)?.closest?.<HTMLElement>(DROP);
    const post = this.#dragged;
    this.#dragged = null;
    this.#leave();
    if (post === null || place === null || place === undefined) return;
    event.preventDefault();
    const at = dropTime(post, place, event.target as Element);
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
    if (post === undefined) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (held === null) this.#target.prepare(post);
    // From its time, or its pencilled one; a draft without either starts from today: its first step lands there.
    const from = post.slot ?? post.pencilled;
    const day = held !== null ? addDays(held.day, steps[event.key]!) : from === undefined ? this.#target.today() : addDays(from.day, steps[event.key]!);
    this.#pending = { post, day };
    card.dataset.movingTo = day;
    this.#target.status(`Move ${post.key} to ${dayTitle(day)}, ${wallTime(post, day, undefined).slice(11)}: Enter saves it to the file, Escape leaves it.`);
  }
}

/** The time a drop on `place` gives: a free slot's (dropped on one), else the post's own on that day (in the week: the hour's, minutes kept). */
function dropTime(post: CalendarPost, place: HTMLElement, target: Element): string {
  const free = target.closest<HTMLElement>('.free-slot')?.dataset.time;
  return free === undefined ? wallTime(post, place.dataset.day!, place.dataset.hour) : `${place.dataset.day} ${free}`;
}

/** The wall time a post dropped on `day` (and `hour`, in the week) gets: its own time (a draft's pencilled one), or minutes, kept. */
function wallTime(post: CalendarPost, day: string, hour: string | undefined): string {
  const time = post.slot?.time ?? post.pencilled?.time ?? '09:00';
  return `${day} ${hour === undefined ? time : `${hour.padStart(2, '0')}:${time.slice(3)}`}`;
}
