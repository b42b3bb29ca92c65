import type { CalendarAccount } from '../model.js';
import { isDay, isMonth, mondayOf } from './dates.js';
import { NO_FILTER, statusOf, type Filter } from './filters.js';

/** What the reader looks at: the month or week, and the filter. */
export interface ViewState {
  view: 'month' | 'week';
  month: string;
  week: string;
  filter: Filter;
}

/**
 * A view as its address names it, so a link shows the same view. The hash starts with the month
 * (`#2027-01`) or the week (`#week-2027-01-04`) as it always has, then the filter:
 * `&account=photo&status=draft&problems&q=words` (an account by its label; several `account=` name
 * the accounts shown). A day can be named instead, in the hash or the query: `date=2027-01-15`
 * (its month, or with `view=week` its week). Null when the address names no view.
 */
export function readAddress(location: { hash: string; search: string }, base: ViewState, accounts: readonly CalendarAccount[]): ViewState | null {
  const hash = location.hash.replace(/^#/, '');
  const ampersand = hash.indexOf('&');
  const head = ampersand === -1 ? hash : hash.slice(0, ampersand);
  const named = head.includes('=') ? '' : decodeURIComponent(head);
  const params = new URLSearchParams(location.search);
  for (const [name, value] of new URLSearchParams(named === '' ? hash : hash.slice(ampersand + 1))) params.append(name, value);
  if (named === '' && ['date', 'view', 'account', 'status', 'problems', 'q'].every((name) => !params.has(name))) return null;

  const state: ViewState = { ...base, filter: filterOf(params, accounts) };
  const date = params.get('date');
  if (date !== null && isDay(date)) Object.assign(state, { month: date.slice(0, 7), week: mondayOf(date) });
  if (params.get('view') === 'week' || params.get('view') === 'month') state.view = params.get('view') as ViewState['view'];
  const week = /^week-(.+)$/.exec(named)?.[1];
  if (isMonth(named)) Object.assign(state, { view: 'month', month: named });
  else if (week !== undefined && isDay(week)) Object.assign(state, { view: 'week', week: mondayOf(week) });
  return state;
}

function filterOf(params: URLSearchParams, accounts: readonly CalendarAccount[]): Filter {
  const shown = params.getAll('account');
  const hidden = shown.length === 0 ? [] : accounts.filter((account) => !shown.includes(account.label) && !shown.includes(account.id)).map((account) => account.id);
  return { hidden, status: statusOf(params.get('status')), problems: params.has('problems'), text: params.get('q') ?? NO_FILTER.text };
}

/** The hash that names a view (readAddress reads it back). */
export function addressOf(state: ViewState, accounts: readonly CalendarAccount[]): string {
  const params = new URLSearchParams();
  const { filter } = state;
  if (filter.hidden.length > 0) {
    const shown = accounts.filter((account) => !filter.hidden.includes(account.id));
    // Every account hidden: one empty name, which names none.
    for (const account of shown.length === 0 ? [{ label: '' }] : shown) params.append('account', account.label);
  }
  if (filter.status !== null) params.set('status', filter.status);
  if (filter.problems) params.set('problems', '');
  if (filter.text !== '') params.set('q', filter.text);
  const rest = params.toString().replace(/problems=(&|$)/, 'problems$1');
  return `#${state.view === 'month' ? state.month : `week-${state.week}`}${rest === '' ? '' : `&${rest}`}`;
}
