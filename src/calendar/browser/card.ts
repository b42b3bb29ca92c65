import { captionOf, type CalendarAccount, type CalendarPost, type Overlay } from '../model.js';
import { h } from './dom.js';
import type { Placed } from './posts-by-day.js';
import { cardThumbnail } from './thumbs.js';

const TAGS: Record<Overlay, string> = {
  new: 'New',
  moved: 'Moved',
  changed: 'Changed',
  renamed: 'Renamed',
  deleted: 'Deleted',
  unscheduled: 'Unscheduled',
  blocked: 'Blocked',
};

/** The overlay's tag on a card: a ghost says what happened to the slot. */
export function tagText(post: CalendarPost, ghost: boolean): string | null {
  if (post.overlay === null) return null;
  if (ghost) return 'Old time';
  return TAGS[post.overlay];
}

export function accountDot(account: CalendarAccount | undefined): HTMLElement {
  return h('span', { class: 'dot', style: `background: var(--a${(account?.color ?? 7) % 8})`, title: account?.label ?? 'unknown account' });
}

/**
 * The first line of the text a post sends, or its key when it has none: the post's text, unless
 * every account has its own (`content:`), which leaves the shared text unused: then the first account's.
 */
export function excerpt(post: CalendarPost): string {
  const first = post.targets[0];
  const sent = first !== undefined && post.targets.every((target) => target.override) ? captionOf(first, post) : post.text;
  const line = sent.split('\n').find((text) => text.trim() !== '');
  return line?.trim() ?? post.key;
}

/**
 * A post's card: time, account colours, its plan tag (or else its status) and the start of its
 * text. `data-key` and `data-day` name what it shows (tests and the details read them).
 */
export function card(placed: Placed, context: { accounts: ReadonlyMap<string, CalendarAccount>; day?: string; badge?: HTMLElement; onOpen: (post: CalendarPost) => void }): HTMLElement {
  const { post, ghost } = placed;
  const tag = tagText(post, ghost);
  const classes = ['card', post.overlay === null ? '' : `o-${post.overlay}`, ghost ? 'ghost' : '', placed.pencilled === true ? 'pencilled' : '', post.errors > 0 ? 'err' : ''].filter(Boolean).join(' ');
  const title = [post.key, post.file ?? '', placed.pencilled === true ? 'a draft, pencilled in for this time' : '', tag ?? '', post.status ?? '', post.errors > 0 ? `${post.errors} error(s)` : ''].filter(Boolean).join(' · ');
  const marker = context.badge ?? (tag === null ? (post.status === null ? null : statusIcon(post.status)) : h('span', { class: 'tag' }, tag));
  return h(
    'button',
    { class: classes, type: 'button', title, style: laneColour(post, context.accounts), 'data-key': post.key, 'data-day': context.day ?? null, 'data-ghost': ghost ? 'true' : null, onclick: () => context.onOpen(post) },
    h(
      'span',
      { class: 'card-head' },
      placed.time === '' ? null : h('span', { class: 'card-time' }, placed.time),
      h('span', { class: 'card-dots' }, post.targets.map((target) => accountDot(context.accounts.get(target.account)))),
      marker,
      context.badge !== undefined && tag !== null ? h('span', { class: 'tag', style: 'margin-left: 4px' }, tag) : null,
    ),
    h('span', { class: 'card-body' }, h('span', { class: 'card-text', dir: 'auto' }, excerpt(post)), cardThumbnail(post)),
  );
}

/** A post the plan leaves alone wears its (first) account's colour; a changed one its change's. */
function laneColour(post: CalendarPost, accounts: ReadonlyMap<string, CalendarAccount>): string | null {
  const first = post.targets[0];
  if (post.overlay !== null || first === undefined) return null;
  return `border-left-color: var(--a${(accounts.get(first.account)?.color ?? 7) % 8})`;
}

/** A status badge: `s-<status>` styles the known ones; any other value shows as it comes. */
export function statusBadge(status: string | null, fallback = 'not on the remote'): HTMLElement {
  const text = status ?? fallback;
  return h('span', { class: `badge s-${text.replace(/[^a-z_]/gi, '-')}`, title: status === null ? fallback : `status: ${status}` }, text.replace(/_/g, ' '));
}

const ICONS: Record<string, string> = { draft: '✎', scheduled: '◷', pending: '◷', publishing: '⋯', waiting: '⋯', published: '✓', partially_published: '◐', failed: '✕', applied: '✓', 'edited since applied': '✎', 'not applied': '○' };

/** A status as a small round badge (cards are narrow); the word is its tooltip and the legend's. */
export function statusIcon(status: string): HTMLElement {
  return h('span', { class: `badge icon s-${status.replace(/[^a-z_]/gi, '-')}`, title: `status: ${status}`, 'aria-label': `status: ${status}` }, ICONS[status] ?? '?');
}
