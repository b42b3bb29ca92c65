import type { PostEdit } from '../../post-edit/edit-post.js';
import type { CalendarModel, CalendarPost } from '../model.js';
import { CardMover } from './drag.js';
import { EditClient, occurrenceOf, type EditAnswer, type EditablePostFile } from './edit-client.js';
import { editor } from './editor.js';
import { byId, h, replace } from './dom.js';

/** How long a touch on a card is held to open its "Move to" (as a phone's long press). */
const LONG_PRESS_MS = 500;

/** What editing needs of the page (main.ts). */
export interface EditingPage {
  model(): CalendarModel<CalendarPost>;
  /** Opens a post's details (null: closes them, and focus goes back to the card they were opened from). */
  open(key: string | null): void;
  /** Focuses a post's card; false when the page shows none. */
  focus(key: string): boolean;
  /** The first open slot of a post's accounts after its time (`YYYY-MM-DD HH:mm`), if any. */
  freeSlotAfter(post: CalendarPost): string | undefined;
}

/** The page's last edit of a file, which "Undo" takes back: the version it wrote, and what it did. */
interface LastEdit {
  file: string;
  version: string;
  key: string | undefined;
  done: string;
}

/**
 * The calendar's editing, in `watch --calendar` only (the page's `data-edit` names the server):
 * moving cards (drag.ts), the editor (editor.ts), a new draft on a day or a free slot (a double
 * click) or from the edit bar, unschedule and duplicate in a post's details. Each edit is written to the post file by
 * the server; the watch plans again as for any save, and the page shows the new calendar when it
 * comes. A file changed on disk since the page read it is not written: the editor opens on it as
 * it is now, with the message.
 */
export class Editing {
  readonly #page: EditingPage;
  readonly #client: EditClient;
  readonly #mover: CardMover;
  readonly #status: HTMLElement;
  /** Reads of post files started as a drag starts, by file. */
  readonly #reading = new Map<string, Promise<EditablePostFile | string>>();
  /** The file the editor is open on: the details panel is the editor's until it closes. */
  #editing: string | null = null;
  readonly #undo: HTMLButtonElement;
  #last: LastEdit | null = null;

  constructor(page: EditingPage, editPath: string) {
    this.#page = page;
    this.#client = new EditClient(editPath);
    this.#status = h('div', { id: 'edit-status', class: 'edit-status', role: 'status', 'aria-live': 'polite' });
    this.#undo = h('button', { class: 'btn', type: 'button', 'data-action': 'undo', hidden: true, title: 'Undo the last edit (Ctrl+Z)', onclick: () => void this.undo() }, 'Undo');
    // A row of its own under the toolbar: it never covers a card.
    byId('toolbar').after(h('div', { class: 'edit-bar' }, h('button', { class: 'btn', type: 'button', 'data-action': 'new-draft', onclick: () => void this.create(undefined) }, '+ New draft'), this.#status, this.#undo));
    this.#mover = new CardMover({
      movable: (key) => this.#movable(key),
      // Read as the move starts: the version it names is the file as it is then.
      prepare: (post) => void this.#read(post.file!, { fresh: true }),
      move: (post, at) => void this.#move(post, at),
      status: (message) => this.status(message),
      today: () => this.#page.model().today,
    });
    // Ctrl+Z (⌘Z) outside a text field takes the last edit back, as the Undo button does.
    document.addEventListener('keydown', (event) => {
      if (event.key.toLowerCase() !== 'z' || !(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey || this.#last === null) return;
      if (event.target instanceof HTMLElement && event.target.closest('input, select, textarea') !== null) return;
      event.preventDefault();
      void this.undo();
    });
    this.#longPress();
    document.addEventListener('dblclick', (event) => {
      const place = (event.target as Element | null)?.closest?.<HTMLElement>('.cell[data-day], .slot[data-day]');
      if (place === null || place === undefined || (event.target as Element).closest('.card') !== null) return;
      // On a free slot, its time; else the hour of the week's row, or 09:00.
      const free = (event.target as Element).closest<HTMLElement>('.free-slot')?.dataset.time;
      void this.create(`${place.dataset.day} ${free ?? `${(place.dataset.hour ?? '9').padStart(2, '0')}:00`}`);
    });
  }

  /** A long press on a card (a touch screen has no drag) opens its details at "Move to", its day picked first. */
  #longPress(): void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cancel = () => clearTimeout(timer);
    document.addEventListener('touchstart', (event) => {
      cancel();
      const key = (event.target as Element | null)?.closest?.<HTMLElement>('.card[data-key]:not([data-ghost])')?.dataset.key;
      if (key === undefined || this.#movable(key) === undefined || event.touches.length > 1) return;
      timer = setTimeout(() => {
        this.#page.open(key);
        byId('details').querySelector<HTMLInputElement>('[data-action="move-to"] input')?.focus();
      }, LONG_PRESS_MS);
    }, { passive: true });
    for (const type of ['touchend', 'touchmove', 'touchcancel']) document.addEventListener(type, cancel, { passive: true });
  }

  /** Whether the details panel holds the editor (the page leaves it alone then). */
  get holdsPanel(): boolean {
    return this.#editing !== null;
  }

  /** After the page drew its views: cards become draggable. */
  drawn(): void {
    this.#mover.drawn(document);
  }

  /** After the page drew a post's details: its edit actions, and "Move to" (a day and a time: what a phone, with no drag, moves a post with). */
  inDetails(panel: HTMLElement, post: CalendarPost): void {
    if (post.file === null || post.overlay === 'deleted') return;
    const actions = h(
      'div',
      { class: 'edit-actions' },
      h('button', { class: 'btn primary', type: 'button', 'data-action': 'edit', onclick: () => void this.edit(post) }, 'Edit'),
      post.slot === null ? null : h('button', { class: 'btn', type: 'button', 'data-action': 'unschedule', onclick: () => void this.#save(post, [{ kind: 'unschedule', ...occurrence(post) }], `${post.key} is a draft again`) }, 'Unschedule'),
      occurrenceOf(post.key) !== undefined ? null : h('button', { class: 'btn', type: 'button', 'data-action': 'duplicate', onclick: () => void this.#duplicate(post) }, 'Duplicate'),
    );
    panel.querySelector('.details-head')?.after(actions, moveTo(post, this.#page.model().today, (at) => {
      this.#page.open(null);
      void this.#move(post, at);
    }));
  }

  status(message: string): void {
    this.#status.textContent = message;
  }

  /** Takes the page's last edit back: the file as it was before it, if it is still what the edit wrote. */
  async undo(): Promise<void> {
    const last = this.#last;
    if (last === null) return;
    this.#forget();
    const answer = await this.#client.undo(last);
    if (answer.kind !== 'written') return this.#answered(answer, '');
    this.status(`Undone: ${last.done}. ${answer.post.file} is as it was.`);
    // The button it was pressed with is gone: focus goes to the post's card, else to the calendar.
    if (last.key === undefined || !this.#page.focus(last.key)) byId('view').focus();
  }

  /** Opens the editor on a post (its file read now: the version the save names). */
  async edit(post: CalendarPost, message?: string): Promise<void> {
    const source = await this.#read(post.file!, { fresh: true });
    if (typeof source === 'string') return this.status(source);
    this.#openEditor(source, { post, ...(message === undefined ? {} : { message }) });
  }

  /** A new draft (on a day, or without one), opened in the editor. */
  async create(at: string | undefined): Promise<void> {
    const answer = await this.#client.create(at);
    if (answer.kind !== 'written') return this.status(answer.message);
    this.status(`New draft ${answer.post.file}${at === undefined ? '' : ` for ${at}`}: write it, then save.`);
    this.#openEditor(answer.post, {});
  }

  #movable(key: string): CalendarPost | undefined {
    const post = this.#page.model().posts.find((candidate) => candidate.key === key);
    return post === undefined || post.file === null || post.overlay === 'deleted' ? undefined : post;
  }

  #read(file: string, options: { fresh?: boolean } = {}): Promise<EditablePostFile | string> {
    let reading = options.fresh === true ? undefined : this.#reading.get(file);
    if (reading === undefined) {
      reading = this.#client.read(file).catch(() => 'the watch is not reachable: is `postsync watch --calendar` still running?');
      this.#reading.set(file, reading);
    }
    return reading;
  }

  #move(post: CalendarPost, at: string): Promise<void> {
    return this.#save(post, [{ kind: 'schedule', at, ...occurrence(post) }], `${post.key} moved to ${at}`);
  }

  async #save(post: CalendarPost, edits: PostEdit[], done: string): Promise<void> {
    const source = await this.#read(post.file!);
    this.#reading.delete(post.file!);
    if (typeof source === 'string') return this.status(source);
    this.#answered(await this.#client.edit(source, edits), done, post);
  }

  /** A copy of the post, on the first open slot of its accounts after it (a draft when there is none), opened in the editor. */
  async #duplicate(post: CalendarPost): Promise<void> {
    const source = await this.#read(post.file!, { fresh: true });
    if (typeof source === 'string') return this.status(source);
    const at = this.#page.freeSlotAfter(post);
    const answer = await this.#client.duplicate(source, at);
    if (answer.kind !== 'written') return this.#answered(answer, '');
    this.#openEditor(answer.post, {});
    this.status(`${post.key} duplicated as ${answer.post.file}, ${at === undefined ? 'a draft (no open slot of its accounts in the next weeks)' : `on the open slot ${at}`}: written. The plan follows.`);
  }

  /** What the server answered an edit: written (it can be undone), the file changed on disk (the editor opens on it), or refused. */
  #answered(answer: EditAnswer, done: string, post?: CalendarPost): void {
    if (answer.kind === 'refused') return this.status(answer.message);
    if (answer.kind === 'conflict') {
      this.status(answer.message);
      return this.#openEditor(answer.post, { message: answer.message, ...(post === undefined ? {} : { post }) });
    }
    performance.mark('postsync-edit-written');
    this.status(`${done}: written to ${answer.post.file}. The plan follows.`);
    this.#last = { file: answer.post.file, version: answer.post.version, key: post?.key, done };
    this.#undo.hidden = false;
    this.#undo.textContent = `Undo: ${done}`;
  }

  #forget(): void {
    this.#last = null;
    this.#undo.hidden = true;
  }

  /** The editor on a file as read; `post` is the post of it the page shows (an occurrence of a repeat, say). */
  #openEditor(source: EditablePostFile, options: { post?: CalendarPost; message?: string }): void {
    const post = options.post ?? this.#page.model().posts.find((candidate) => candidate.file === source.file);
    this.#editing = source.file;
    const panel = byId('details');
    const close = () => {
      this.#editing = null;
      panel.onkeydown = null;
      this.#page.open(post?.key ?? null);
    };
    const onSave = (edits: PostEdit[]) => {
      void this.#client.edit(source, edits).then((answer) => {
        if (answer.kind === 'written') close();
        this.#answered(answer, `${post?.key ?? source.file} saved`, post);
      });
    };
    const render = (text: string) => this.#client.render(source.file, text);
    const upload = (file: File, accounts: readonly string[]) => this.#client.upload(source, file, accounts);
    replace(panel, editor({ source, post, accounts: this.#page.model().accounts, render, upload, ...(options.message === undefined ? {} : { message: options.message }), onSave, onClose: close }));
    // Keys typed in the editor are text, never the page's shortcuts; Escape leaves the editor.
    panel.onkeydown = (event) => {
      event.stopPropagation();
      if (event.key === 'Escape') close();
    };
    panel.hidden = false;
    byId('edit-text').focus();
  }
}

function occurrence(post: CalendarPost): { occurrence?: string } {
  const date = occurrenceOf(post.key);
  return date === undefined ? {} : { occurrence: date };
}

/** The "Move to" form of a post's details: a day and a time (the post's, a draft's pencilled one, else today at 09:00). */
function moveTo(post: CalendarPost, today: string, onMove: (at: string) => void): HTMLElement {
  const from = post.slot ?? post.pencilled;
  const day = h('input', { type: 'date', name: 'day', required: true, value: from?.day ?? today }) as HTMLInputElement;
  const time = h('input', { type: 'time', name: 'time', required: true, value: from?.time ?? '09:00' }) as HTMLInputElement;
  return h(
    'form',
    { class: 'move-to', 'data-action': 'move-to', 'aria-label': 'Move to', onsubmit: (event: Event) => {
      event.preventDefault();
      const at = `${day.value} ${time.value.slice(0, 5)}`;
      if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(at) && at !== `${post.slot?.day} ${post.slot?.time}`) onMove(at);
    } },
    h('label', null, 'Move to ', day),
    h('label', null, h('span', { class: 'visually-hidden' }, 'Time '), time),
    h('button', { class: 'btn', type: 'submit' }, 'Move'),
  );
}
