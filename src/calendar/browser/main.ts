import type { PostsDelta } from '../calendar-events.js';
import type { FirstView } from '../first-view.js';
import type { CalendarAccount, CalendarModel, CalendarPost } from '../model.js';
import { withPageToken } from './address.js';
import { agendaView } from './agenda.js';
import { addDays, addMonths, mondayOf, monthDays, monthTitle, weekDays, weekTitle } from './dates.js';
import { freeSlotAfter } from './free-slots.js';
import { details } from './details.js';
import { Editing } from './editing.js';
import { byId, h, replace } from './dom.js';
import { filterBar, isEmpty, matcher, NO_FILTER, type Filter } from './filters.js';
import { header } from './header.js';
import { PostsByDay } from './posts-by-day.js';
import { legend, planBox, problems, tray } from './side.js';
import { addressOf, readAddress, type ViewState } from './view-address.js';
import { monthView, weekView, type ViewContext } from './views.js';

/** Narrower than this, the calendar is a list of days (agenda.ts): seven columns would not fit. */
const NARROW = window.matchMedia('(max-width: 699px)');

/**
 * The page: reads the calendar from the page's JSON, draws the visible month or week only (the
 * rest stays data), and draws again on navigation, on a filter and, in `watch --calendar`, when the
 * server sends a new calendar.
 */
class CalendarPage {
  #model: CalendarModel<CalendarPost>;
  #posts: PostsByDay;
  #accounts: Map<string, CalendarAccount>;
  #state: ViewState;
  #shows: (post: CalendarPost) => boolean = () => true;
  #open: string | null = null;
  #allDrafts = false;
  #updatedAt: Date | null = null;
  /** Posts per day of the first view, while the page holds only that view's posts (see page.ts). */
  #dayCounts: Record<string, number> | null;
  /** `watch --calendar`: the page edits the post files (editing.ts); null on a written page. */
  readonly #editing: Editing | null;

  constructor(model: FirstView<CalendarPost>) {
    this.#model = model;
    this.#dayCounts = model.dayCounts;
    this.#posts = new PostsByDay(model);
    this.#accounts = new Map(model.accounts.map((account) => [account.id, account]));
    const initial: ViewState = { view: 'month', month: model.initial.month, week: model.initial.week, filter: NO_FILTER };
    this.#state = this.#fromAddress(initial) ?? initial;
    this.#shows = matcher(this.#state.filter);
    const edit = document.body.dataset.edit;
    this.#editing = edit === undefined ? null : new Editing({ model: () => this.#model, open: (key) => this.#openPost(key), focus: (key) => this.#focusCard(key), freeSlotAfter: (post) => this.#freeSlotAfter(post) }, edit);
  }

  start(): void {
    window.addEventListener('hashchange', () => {
      const state = this.#fromAddress(this.#state);
      if (state !== null) this.#go(state, { hash: false });
    });
    NARROW.addEventListener('change', () => this.render());
    document.addEventListener('keydown', (event) => this.#key(event));
    // The skip link focuses the calendar; its `#view` must not become the address (it names the month shown).
    document.querySelector('.skip-link')?.addEventListener('click', (event) => {
      event.preventDefault();
      byId('view').focus();
    });
    this.render();
    // For bench/calendar: when the first view was drawn, and (a frame later) painted.
    performance.mark('postsync-calendar-drawn');
    requestAnimationFrame(() => setTimeout(() => performance.mark('postsync-calendar-painted')));
  }

  /** The posts the page holds now. */
  get posts(): readonly CalendarPost[] {
    return this.#model.posts;
  }

  /** A new calendar from the server: the same view, the same open post when it is still there. */
  update(model: CalendarModel<CalendarPost>): void {
    this.#updatedAt = new Date();
    this.#adopt(model);
  }

  /** The posts beyond the first view's, read once the page is (see page.ts). */
  complete(rest: readonly CalendarPost[]): void {
    // A calendar from the server came first (watch): it holds every post already.
    if (this.#updatedAt !== null) return;
    this.#adopt({ ...this.#model, posts: [...this.#model.posts, ...rest] });
  }

  #adopt(model: CalendarModel<CalendarPost>): void {
    this.#model = model;
    this.#dayCounts = null;
    this.#posts = new PostsByDay(model);
    this.#accounts = new Map(model.accounts.map((account) => [account.id, account]));
    this.render();
  }

  render(): void {
    const model = this.#model;
    // Drawing replaces the cards: the one that had focus gets it back, wherever its post now is.
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement.closest<HTMLElement>('.card[data-key]')?.dataset.key : undefined;
    replace(byId('top'), header(model, { live: document.body.dataset.live !== undefined, updatedAt: this.#updatedAt }));
    replace(byId('toolbar'), this.#toolbar());
    this.#renderFilters();
    const unfiltered = isEmpty(this.#state.filter);
    const context: ViewContext = {
      posts: this.#posts,
      accounts: this.#accounts,
      today: model.today,
      shown: (post) => this.#shown(post),
      countOn: (day) => (unfiltered ? this.#dayCounts?.[day] : undefined),
      onOpen: (post) => this.#openPost(post.key),
      onMore: (day) => this.#go({ ...this.#state, view: 'week', week: mondayOf(day) }),
      free: this.#state.filter.status === null && !this.#state.filter.problems && this.#state.filter.text.trim() === '' ? { slots: model.slots, accounts: this.#accounts, today: model.today, hidden: new Set(this.#state.filter.hidden) } : null,
    };
    replace(byId('view'), this.#view(context));
    const unscheduled = this.#posts.unscheduled.filter((post) => this.#shown(post));
    replace(
      byId('side'),
      planBox(model),
      tray(unscheduled, {
        accounts: this.#accounts,
        all: this.#allDrafts,
        onAll: () => ((this.#allDrafts = true), this.render()),
        onOpen: (post) => this.#openPost(post.key),
        ...(unfiltered ? { totals: model.totals } : {}),
      }),
      problems(model.problems),
      legend(model),
    );
    this.#editing?.drawn();
    this.#renderDetails();
    if (focused !== undefined) this.#focusCard(focused);
  }

  /** Focuses the card of a post (where it is placed, else in the tray); false when the page shows none. */
  #focusCard(key: string): boolean {
    const cards = [...document.querySelectorAll<HTMLElement>('#view .card[data-key]:not([data-ghost]), #side .card[data-key]')];
    const card = cards.find((candidate) => candidate.dataset.key === key);
    card?.focus();
    return card !== undefined;
  }

  #freeSlotAfter(post: CalendarPost): string | undefined {
    return freeSlotAfter(post, this.#posts, { slots: this.#model.slots, accounts: this.#accounts, today: this.#model.today, hidden: new Set() });
  }

  #toolbar(): HTMLElement[] {
    const { view } = this.#state;
    const step = (direction: number) =>
      view === 'month' ? this.#go({ ...this.#state, month: addMonths(this.#state.month, direction) }) : this.#go({ ...this.#state, week: addDays(this.#state.week, 7 * direction) });
    const today = this.#model.today;
    return [
      h('button', { class: 'btn', type: 'button', 'aria-label': `Previous ${view}`, onclick: () => step(-1) }, '‹'),
      h('button', { class: 'btn', type: 'button', onclick: () => this.#go({ ...this.#state, month: today.slice(0, 7), week: mondayOf(today) }) }, 'Today'),
      h('button', { class: 'btn', type: 'button', 'aria-label': `Next ${view}`, onclick: () => step(1) }, '›'),
      h('h2', { id: 'view-title' }, view === 'month' ? monthTitle(this.#state.month) : weekTitle(this.#state.week)),
      h(
        'div',
        { class: 'seg', role: 'group', 'aria-label': 'View' },
        h('button', { type: 'button', 'aria-pressed': String(view === 'month'), onclick: () => this.#go({ ...this.#state, view: 'month', month: this.#state.week.slice(0, 7) }) }, 'Month'),
        h('button', { type: 'button', 'aria-pressed': String(view === 'week'), onclick: () => this.#go({ ...this.#state, view: 'week', week: this.#weekInMonth() }) }, 'Week'),
      ),
    ];
  }

  /** The week the month view turns into: the week of the month's first post, else its first week. */
  #weekInMonth(): string {
    const month = this.#state.month;
    if (this.#state.week.startsWith(month) || addDays(this.#state.week, 6).startsWith(month)) return this.#state.week;
    const first = this.#model.posts.find((post) => post.slot?.day.startsWith(month));
    return mondayOf(first?.slot?.day ?? `${month}-01`);
  }

  #shown(post: CalendarPost): boolean {
    return this.#shows(post);
  }

  /** The month or week on screen: a grid, or on a narrow screen its days as a list. */
  #view(context: ViewContext): HTMLElement {
    const { view, month, week } = this.#state;
    if (NARROW.matches) {
      return agendaView(view === 'month' ? monthDays(month) : weekDays(week), context, view);
    }
    return view === 'month' ? monthView(month, context) : weekView(week, context);
  }

  /** The filter bar: drawn again on a new calendar or a new filter, but not while the search is typed in (it keeps its box). */
  #renderFilters(): void {
    const bar = byId('filters');
    if (bar.contains(document.activeElement) && document.activeElement instanceof HTMLInputElement && document.activeElement.type === 'search') return;
    replace(bar, filterBar(this.#model.accounts, this.#state.filter, (change) => this.#filter(change)));
  }

  #filter(change: Partial<Filter> | ((filter: Filter) => Partial<Filter>)): void {
    const filter = this.#state.filter;
    this.#go({ ...this.#state, filter: { ...filter, ...(typeof change === 'function' ? change(filter) : change) } });
  }

  #openPost(key: string | null): void {
    const opener = this.#open;
    this.#open = key;
    this.#renderDetails();
    if (key !== null) return byId('details').focus();
    // Closed: back to the card it was opened from (13 Tabs from the top otherwise), else to the calendar.
    if (opener === null || !this.#focusCard(opener)) byId('view').focus();
  }

  #renderDetails(): void {
    if (this.#editing?.holdsPanel === true) return;
    const panel = byId('details');
    const post = this.#open === null ? undefined : this.#model.posts.find((candidate) => candidate.key === this.#open);
    if (post === undefined) {
      panel.hidden = true;
      panel.replaceChildren();
      return;
    }
    replace(panel, details(post, this.#model, this.#accounts, () => this.#openPost(null)));
    this.#editing?.inDetails(panel, post);
    panel.hidden = false;
  }

  #go(state: ViewState, options: { hash?: boolean } = {}): void {
    this.#state = state;
    this.#shows = matcher(state.filter);
    if (options.hash !== false) history.replaceState(null, '', addressOf(state, this.#model.accounts));
    this.render();
  }

  #fromAddress(base: ViewState): ViewState | null {
    return readAddress(location, base, this.#model.accounts);
  }

  #key(event: KeyboardEvent): void {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'Escape' && this.#open !== null) return this.#openPost(null);
    if (this.#open !== null || (event.target instanceof HTMLElement && event.target.closest('input, select, textarea') !== null)) return;
    const moves: Record<string, () => void> = {
      ArrowLeft: () => byId('toolbar').querySelector<HTMLButtonElement>('button')?.click(),
      ArrowRight: () => byId('toolbar').querySelectorAll<HTMLButtonElement>('button')[2]?.click(),
      m: () => this.#go({ ...this.#state, view: 'month' }),
      w: () => this.#go({ ...this.#state, view: 'week', week: this.#weekInMonth() }),
      t: () => byId('toolbar').querySelectorAll<HTMLButtonElement>('button')[1]?.click(),
    };
    moves[event.key]?.();
  }
}

/**
 * In `watch --calendar`: after every save, the posts it changed arrive as a server-sent event
 * (`posts`), or the whole calendar (`calendar`) when this page does not hold the one before. The
 * URL names the calendar the page was made from (`?since=`); each event's id is its version.
 */
function listen(page: CalendarPage, url: string): void {
  const address = new URL(withPageToken(url), location.href);
  let version = Number(address.searchParams.get('since'));
  const open = (since: string): void => {
    address.searchParams.set('since', since);
    const events = new EventSource(address.href);
    events.addEventListener('calendar', (event) => {
      const { data, lastEventId } = event as MessageEvent<string>;
      version = Number(lastEventId);
      page.update(JSON.parse(data) as CalendarModel);
    });
    events.addEventListener('posts', (event) => {
      const { data, lastEventId } = event as MessageEvent<string>;
      const delta = JSON.parse(data) as PostsDelta;
      const model = delta.base === version ? withDelta(page.posts, delta) : null;
      if (model === null) {
        // A calendar missed, or the page's own posts not all read yet: the whole calendar, once.
        events.close();
        return open('none');
      }
      version = Number(lastEventId);
      page.update(model);
    });
  };
  open(String(version));
}

/** The calendar a delta makes of the posts the page holds; null when one it names is not among them. */
function withDelta(held: readonly CalendarPost[], delta: PostsDelta): CalendarModel<CalendarPost> | null {
  const byKey = new Map(held.map((post) => [post.key, post]));
  for (const post of delta.changed) byKey.set(post.key, post);
  const posts: CalendarPost[] = [];
  for (const key of delta.order) {
    const post = byKey.get(key);
    if (post === undefined) return null;
    posts.push(post);
  }
  return { ...delta.calendar, posts };
}

const page = new CalendarPage(JSON.parse(byId('calendar-data').textContent ?? 'null') as FirstView);
page.start();
// The other posts follow this script in the page: read once the browser has parsed them.
document.addEventListener('DOMContentLoaded', () => {
  const rest = [...document.querySelectorAll('script[id^="calendar-rest-"]')].flatMap((element) => JSON.parse(element.textContent ?? '[]') as CalendarPost[]);
  if (rest.length > 0) page.complete(rest);
});
if (document.body.dataset.live !== undefined) listen(page, document.body.dataset.live);
