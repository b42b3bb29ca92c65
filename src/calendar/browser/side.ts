import type { Diagnostic } from '../../diagnostics.js';
import type { CalendarAccount, CalendarModel, CalendarPost, Overlay } from '../model.js';
import { card, statusBadge, statusIcon } from './card.js';
import { h, plural } from './dom.js';

/** Drafts the tray lists before "show all". */
const TRAY_FIRST = 40;

/** The unscheduled tray: drafts (ready or not) and posts the plan unschedules. */
export function tray(
  posts: readonly CalendarPost[],
  context: { accounts: ReadonlyMap<string, CalendarAccount>; all: boolean; onAll: () => void; onOpen: (post: CalendarPost) => void; totals?: { unscheduled: number; ready: number } },
): HTMLElement {
  // The page's totals count posts it may not have read yet (page.ts); a filtered tray counts what it lists.
  const total = context.totals?.unscheduled ?? posts.length;
  const ready = context.totals?.ready ?? posts.filter((post) => post.ready).length;
  const listed = context.all ? posts : posts.slice(0, TRAY_FIRST);
  return h(
    'section',
    { class: 'box', id: 'tray', 'aria-label': 'Unscheduled' },
    h('h3', null, 'Unscheduled', h('span', null, total === 0 ? '' : `${ready} ready · ${total - ready} not ready`)),
    total === 0 ? h('p', { class: 'empty' }, 'Every post has a time.') : null,
    h('div', { class: 'tray' }, listed.map((post) => card({ post, ghost: false, time: '' }, { accounts: context.accounts, badge: statusBadge(post.ready ? 'ready' : 'not ready'), onOpen: context.onOpen }))),
    listed.length < total ? h('button', { class: 'btn', type: 'button', onclick: context.onAll }, `Show all ${plural(total, 'unscheduled post')}`) : null,
  );
}

/** Files that yield no post (they cannot be placed), and problems of the project. */
export function problems(diagnostics: readonly Diagnostic[]): HTMLElement | null {
  if (diagnostics.length === 0) return null;
  return h(
    'section',
    { class: 'box', id: 'problems', 'aria-label': 'Files with problems' },
    h('h3', null, 'Files not on the calendar', h('span', null, plural(diagnostics.length, 'problem'))),
    diagnostics.map((diagnostic) =>
      h(
        'div',
        { class: 'problem' },
        h('span', { class: `sev-${diagnostic.severity}` }, diagnostic.severity), ' ',
        h('code', null, `${diagnostic.file ?? 'postsync.yaml'}${diagnostic.line === undefined ? '' : `:${diagnostic.line}`}`), ' ',
        diagnostic.message,
        diagnostic.hint === undefined ? null : h('div', { class: 'empty' }, diagnostic.hint),
      ),
    ),
  );
}

const LEGEND: [Overlay | null, string, string][] = [
  ['new', 'New', 'a new post, or a draft getting a time'],
  ['moved', 'Moved', 'a new time; the old slot shows a striped card'],
  ['changed', 'Changed', 'same time, new text, accounts, media or options'],
  ['renamed', 'Renamed', 'file renamed: nothing changes on the remote'],
  ['unscheduled', 'Unscheduled', 'goes back to draft; striped card in its old slot'],
  ['deleted', 'Deleted', 'file removed and --prune: the post is deleted'],
  ['blocked', 'Blocked', 'cannot be done (published, account unavailable…)'],
  [null, 'Unchanged', 'as on the remote'],
];

const PLAN_ROWS: Overlay[] = ['new', 'moved', 'changed', 'renamed', 'unscheduled', 'deleted', 'blocked'];

/** The plan in numbers, in the cards' styles. */
export function planBox(model: CalendarModel<CalendarPost>): HTMLElement {
  const summary = model.summary;
  const rows = summary === null ? [] : PLAN_ROWS.filter((overlay) => summary[overlay] > 0);
  return h(
    'section',
    { class: 'box', id: 'plan', 'aria-label': 'Plan' },
    h('h3', null, 'Plan', summary === null ? null : h('span', null, `${plural(summary.unchanged, 'post')} unchanged`)),
    summary === null
      ? h('p', { class: 'empty' }, model.source === 'state' ? 'The API was not reached: no plan. Statuses come from the state file.' : 'No plan.')
      : rows.length === 0
        ? h('p', { class: 'empty' }, 'No changes: the remote matches the files.')
        : h('div', { class: 'plan-rows' }, rows.map((overlay) => h('span', { class: `tag o-${overlay}` }, `${summary[overlay]} ${overlay}`))),
  );
}

/** What each card style means; without a plan, only statuses. */
export function legend(model: CalendarModel<CalendarPost>): HTMLElement {
  return h(
    'section',
    { class: 'box', id: 'legend', 'aria-label': 'Legend' },
    h('h3', null, model.summary === null ? 'Statuses' : 'Plan legend'),
    model.summary === null
      ? null
      : h('div', { class: 'legend' }, LEGEND.map(([overlay, name, meaning]) => [h('span', { class: `card${overlay === null ? '' : ` o-${overlay}`}` }, h('span', { class: 'card-head' }, h('span', { class: 'tag' }, name))), h('span', null, meaning)])),
    h('div', { class: 'statuses', title: 'Statuses as the remote gives them' }, ['draft', 'scheduled', 'publishing', 'published', 'failed'].map((status) => h('span', { class: 'status-key' }, statusIcon(status), ` ${status}`))),
  );
}
