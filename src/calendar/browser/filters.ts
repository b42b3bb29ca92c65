import type { CalendarAccount, CalendarPost } from '../model.js';
import { h } from './dom.js';

/** The statuses a reader filters by: a time or none in the files, and what the plan does. */
export const STATUSES = ['scheduled', 'draft', 'blocked', 'changed'] as const;
export type StatusFilter = (typeof STATUSES)[number];

/** Which posts the page shows. The empty filter (`NO_FILTER`) shows every post. */
export interface Filter {
  /** Accounts whose posts are hidden (ids); a post shows when one of its accounts is not hidden. */
  hidden: readonly string[];
  status: StatusFilter | null;
  /** Only posts with problems (errors or warnings in their file). */
  problems: boolean;
  /** Words the post's texts hold, whatever their case. */
  text: string;
}

export const NO_FILTER: Filter = { hidden: [], status: null, problems: false, text: '' };

export function isEmpty(filter: Filter): boolean {
  return filter.hidden.length === 0 && filter.status === null && !filter.problems && filter.text.trim() === '';
}

const STATUS_TESTS: Record<StatusFilter, (post: CalendarPost) => boolean> = {
  scheduled: (post) => post.slot !== null,
  draft: (post) => post.slot === null,
  blocked: (post) => post.overlay === 'blocked',
  changed: (post) => post.overlay !== null && post.overlay !== 'blocked',
};

/** The test a filter makes of a post. */
export function matcher(filter: Filter): (post: CalendarPost) => boolean {
  const hidden = new Set(filter.hidden);
  const words = filter.text.trim().toLocaleLowerCase();
  const status = filter.status === null ? null : STATUS_TESTS[filter.status];
  return (post) =>
    (post.targets.length === 0 || post.targets.some((target) => !hidden.has(target.account))) &&
    (status === null || status(post)) &&
    (!filter.problems || post.diagnostics.length > 0) &&
    (words === '' || searchText(post).includes(words));
}

/** What a search looks through: the post's text, each account's own text, its key and file. */
function searchText(post: CalendarPost): string {
  const own = post.targets.map((target) => `${target.shown ?? ''}${target.overflow}`);
  return [post.text, ...own, post.key, post.file ?? ''].join('\n').toLocaleLowerCase();
}

/**
 * The filter bar: a chip per account, the status, the problem switch and the search, showing
 * `filter`. Each change calls `onChange` with what it changes, which the page applies to the filter
 * it has then (the bar may be older: the page does not draw it again while the search is typed in).
 */
export function filterBar(accounts: readonly CalendarAccount[], filter: Filter, onChange: (change: Partial<Filter> | ((filter: Filter) => Partial<Filter>)) => void): HTMLElement[] {
  const hidden = new Set(filter.hidden);
  const toggle = (id: string) => onChange((now) => ({ hidden: now.hidden.includes(id) ? now.hidden.filter((other) => other !== id) : [...now.hidden, id] }));
  const status = h('select', { class: 'btn', 'aria-label': 'Status', onchange: (event: Event) => onChange({ status: statusOf((event.target as HTMLSelectElement).value) }) }, h('option', { value: '' }, 'Any status'), STATUSES.map((name) => h('option', { value: name }, name)));
  status.value = filter.status ?? '';
  return [
    h('input', { class: 'search', type: 'search', placeholder: 'Search the texts', 'aria-label': 'Search the texts', value: filter.text, oninput: (event: Event) => onChange({ text: (event.target as HTMLInputElement).value }) }),
    status,
    h('label', { class: 'check' }, h('input', { type: 'checkbox', checked: filter.problems, onchange: (event: Event) => onChange({ problems: (event.target as HTMLInputElement).checked }) }), 'Only posts with problems'),
    h(
      'div',
      { class: 'chips', role: 'group', 'aria-label': 'Accounts' },
      accounts.map((account) =>
        h(
          'button',
          { class: 'chip', type: 'button', 'aria-pressed': String(!hidden.has(account.id)), title: account.available ? `Show or hide ${account.label}` : `${account.label} is unavailable: ${account.reason ?? ''}`, onclick: () => toggle(account.id) },
          h('span', { class: 'dot', style: `background: var(--a${account.color % 8})` }),
          h('span', { class: 'chip-label', dir: 'auto' }, account.label),
          account.platform === null ? null : h('small', null, account.platform),
          account.available ? null : h('small', null, '⚠'),
        ),
      ),
    ),
  ];
}

export function statusOf(text: string | null): StatusFilter | null {
  return (STATUSES as readonly string[]).includes(text ?? '') ? (text as StatusFilter) : null;
}
