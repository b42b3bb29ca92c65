import type { Diagnostic } from '../../diagnostics.js';
import type { CalendarAccount, CalendarMedia, CalendarModel, CalendarPost, CalendarTarget, Slot } from '../model.js';
import { withPageToken } from './address.js';
import { accountDot, statusBadge, tagText } from './card.js';
import { dayTitle } from './dates.js';
import { h, number, type Child } from './dom.js';

function slotLine(slot: Slot | null): string {
  return slot === null ? 'no time: a draft' : `${dayTitle(slot.day)}, ${slot.time} (UTC${slot.offset})`;
}

/** The panel a card opens: where the post comes from, what the plan does with it, and a preview per account. */
export function details(post: CalendarPost, model: CalendarModel<CalendarPost>, accounts: ReadonlyMap<string, CalendarAccount>, onClose: () => void): Child[] {
  const tag = tagText(post, false);
  return [
    h('div', { class: 'details-head' },
      h('div', null, h('h2', { id: 'details-title', dir: 'auto' }, post.key), h('div', { style: 'margin-top: 6px; display: flex; gap: 6px; flex-wrap: wrap' }, statusBadge(post.status), tag === null ? null : h('span', { class: `tag o-${post.overlay}` }, tag), post.draft ? statusBadge(post.ready ? 'ready' : 'not ready') : null)),
      h('button', { class: 'btn', type: 'button', onclick: onClose, 'aria-label': 'Close' }, 'Close ✕'),
    ),
    h('dl', { class: 'facts' },
      h('dt', null, 'File'), h('dd', { class: 'mono', 'data-field': 'file' }, post.file ?? 'removed'),
      h('dt', null, post.previous === null ? 'Time' : post.overlay === 'blocked' ? 'Time in the file' : 'New time'), h('dd', null, slotLine(post.slot)),
      post.previous === null ? null : [h('dt', null, post.overlay === 'blocked' ? 'Publishes at (kept)' : 'Old time'), h('dd', null, slotLine(post.previous))],
      h('dt', null, 'Time zone'), h('dd', null, model.timezone),
    ),
    changeSection(post),
    post.diagnostics.length === 0 ? null : h('div', { class: 'section' }, h('h3', null, 'Problems in this file'), post.diagnostics.map(diagnostic)),
    h('div', { class: 'section' }, h('h3', null, post.targets.length === 0 ? 'No accounts yet' : 'Preview per account'), post.targets.map((target) => preview(target, post, accounts))),
  ];
}

function changeSection(post: CalendarPost): HTMLElement {
  const change = post.change;
  if (change === null) return h('div', { class: 'section', 'data-field': 'change' }, h('h3', null, 'Plan'), h('div', null, post.status === null ? 'Not in the plan.' : 'No change: the remote matches the file.'));
  return h(
    'div',
    { class: 'section', 'data-field': 'change' },
    h('h3', null, 'Plan'),
    h('div', null, h('b', null, change.action), change.fromKey !== undefined && change.fromKey !== post.key ? ` from ${change.fromKey}` : null),
    h('ul', { class: 'reasons' }, change.reasons.map((reason) => h('li', null, reason))),
    change.fields.length === 0 ? null : h('table', { class: 'fields' }, h('tbody', null, change.fields.map((field) => h('tr', null, h('td', null, field.field), h('td', null, h('span', { class: 'before', dir: 'auto' }, field.before), ' → ', h('span', { class: 'after', dir: 'auto' }, field.after)))))),
  );
}

function diagnostic(item: Diagnostic): HTMLElement {
  const where = item.line === undefined ? '' : ` (line ${item.line}${item.column === undefined ? '' : `, column ${item.column}`})`;
  return h(
    'div',
    { class: `diag ${item.severity}` },
    h('b', null, `${item.severity}${where}: `), item.message,
    item.expected === undefined ? null : h('small', null, `expected ${item.expected}${item.found === undefined ? '' : `; found ${item.found}`}`),
    item.hint === undefined ? null : h('small', null, item.hint),
  );
}

/** Option names a platform shows as a title or caption of their own. */
const TITLE_OPTIONS = ['vidATitle', 'shortBCaption'];

/** One account's preview: the caption as it will be sent, cut where the account's limit is. */
export function preview(target: CalendarTarget, post: CalendarPost, accounts: ReadonlyMap<string, CalendarAccount>): HTMLElement {
  const account = accounts.get(target.account);
  const max = account?.maxLength ?? null;
  const over = max !== null && target.length > max;
  const title = target.options.find((option) => TITLE_OPTIONS.includes(option.name));
  const lengthText = max === null ? `${number(target.length)} ${account?.unitWord ?? 'characters'} (this account's limit is unknown)` : `${number(target.length)} / ${number(max)} ${account?.unitWord ?? 'characters'}${over ? ` — ${number(target.length - max)} over the limit: the part after ✂ is cut` : ''}`;
  return h(
    'article',
    { class: 'preview', 'data-account': target.account },
    h('div', { class: 'preview-head' }, accountDot(account), h('b', { dir: 'auto' }, target.label), h('span', { class: 'empty handle' }, [account?.platform, account?.handle].filter(Boolean).join(' · ')), statusBadge(target.status)),
    h(
      'div',
      { class: 'preview-body' },
      title === undefined ? null : h('div', { class: 'preview-title', dir: 'auto' }, title.value),
      h('div', { class: `length${over ? ' over' : ''}` }, target.override ? `${lengthText} · this account's own text (content:)` : lengthText, over ? [' ', h('button', { class: 'more', type: 'button', onclick: (event: Event) => (event.currentTarget as HTMLElement).closest('.preview')?.querySelector('.cut')?.scrollIntoView({ block: 'center' }) }, 'show the cut')] : null),
      h('div', { class: 'caption', 'data-field': 'caption', dir: 'auto' }, target.shown ?? post.text, target.overflow === '' ? null : [h('span', { class: 'cut', title: `cut at ${max}` }, '✂ cut'), h('span', { class: 'overflow', 'data-field': 'overflow' }, target.overflow)]),
      target.error === undefined ? null : h('div', { class: 'diag' }, h('b', null, 'remote error: '), target.error),
      target.options.length === 0 ? null : h('div', { class: 'options' }, target.options.map((option) => h('span', { class: 'option' }, `${option.name}: `, h('b', { dir: 'auto' }, option.value)))),
      post.media.length === 0 ? null : h('div', { class: 'media' }, post.media.map(thumbnail)),
    ),
  );
}

function duration(seconds: number | undefined): string {
  if (seconds === undefined) return 'video';
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** An image scaled into its box, a video's poster, or a placeholder with the video's duration. */
function thumbnail(media: CalendarMedia): HTMLElement {
  // A remote media file has an id for a path: it is named by its kind, its id left to the tooltip.
  const name = media.remote === true ? `${media.kind} on the remote` : (media.path.split('/').pop() ?? media.path);
  const label = `${media.remote === true ? `${name} · ${media.path}` : name}${media.width === undefined ? '' : ` · ${media.width}×${media.height}`}${media.alt === undefined ? '' : ` · ${media.alt}`}`;
  const video = media.kind === 'video';
  const placeholder = video ? [h('span', { class: 'play' }, '▶'), h('span', null, name)] : h('span', null, name);
  const box = h('div', { class: `thumb${video ? ' video' : ''}`, title: label }, media.src === null ? placeholder : h('img', { src: withPageToken(media.src), alt: media.alt ?? name, loading: 'lazy', decoding: 'async' }));
  if (video) box.appendChild(h('span', { class: 'dur' }, duration(media.durationSeconds)));
  // A thumbnail that cannot be loaded (a file moved, an expired poster URL) falls back to the placeholder.
  box.querySelector('img')?.addEventListener('error', () => {
    box.replaceChildren();
    for (const part of [placeholder].flat()) box.appendChild(part);
    if (video) box.appendChild(h('span', { class: 'dur' }, duration(media.durationSeconds)));
  });
  return box;
}
