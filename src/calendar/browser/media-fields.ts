import type { PostEdit } from '../../post-edit/edit-post.js';
import type { AccountMedia, CalendarAccount, CalendarMedia } from '../model.js';
import { withPageToken } from './address.js';
import type { EditablePostFile } from './edit-client.js';
import { h } from './dom.js';

/** One file of the editor's media list: one the file names (`origin`, its place there) or one picked here (`file`). */
interface MediaItem {
  origin: number | null;
  path: string | null;
  alt: string;
  /** A file picked here, to add (origin null) or to put in place of the file named (replace). */
  file?: File;
  /** What the page shows of it: its picture (the calendar's thumbnail, or the picked file), kind, type and size. */
  shown: Pick<CalendarMedia, 'src' | 'kind' | 'type' | 'sizeBytes'>;
}

/** The editor's media section, and what a save needs of it. */
export interface MediaFields {
  element: HTMLElement;
  /** The files as they are now, for the previews. */
  shown(): CalendarMedia[];
  /** Adds the picked files to the project (`upload` answers each one's path, or why not), then the edits of `media:`; a string: why nothing can be saved. */
  edits(upload: (file: File) => Promise<string | { path: string }>): Promise<PostEdit[] | string>;
  /** Each chosen account that cannot take a file, with why (the plan would block the post). */
  misfits(accounts: readonly CalendarAccount[]): string[];
}

const ACCEPT = 'image/*,video/*';

/**
 * The post's media in the editor: each file with its picture, alt text, a place to move it to, a
 * file to put in its place, or out of the list; and files to add, picked or dropped. Nothing is
 * written until the save: then each picked file goes to the project's media folder (the server
 * names it and checks it against the accounts), and `media:` changes by the edits of post-edit.
 */
export function mediaFields(source: EditablePostFile, pictures: readonly CalendarMedia[], onChange: () => void): MediaFields {
  const byPath = new Map(pictures.map((media) => [media.path, media]));
  const items: MediaItem[] = (source.media ?? []).map((entry, origin) => {
    const known = byPath.get(entry.path);
    return { origin, path: entry.path, alt: entry.alt ?? '', shown: { src: known?.src ?? null, kind: known?.kind ?? 'image', ...(known?.type === undefined ? {} : { type: known.type }), ...(known?.sizeBytes === undefined ? {} : { sizeBytes: known.sizeBytes }) } };
  });
  const before = items.map((item) => ({ path: item.path, alt: item.alt }));
  const list = h('ol', { class: 'edit-media-list' });
  const picker = h('input', { type: 'file', accept: ACCEPT, multiple: true, 'data-media-add': true, 'aria-label': 'Add images or videos' }) as HTMLInputElement;
  const add = (files: Iterable<File>) => {
    for (const file of files) items.push({ origin: null, path: null, alt: '', file, shown: pickedShown(file) });
    draw();
  };
  picker.addEventListener('change', () => {
    add(picker.files ?? []);
    picker.value = '';
  });
  const element = h(
    'fieldset',
    { class: 'edit-field edit-media', 'data-field': 'media' },
    h('legend', null, 'Media, in order (images and videos)'),
    list,
    h('label', { class: 'btn edit-media-add' }, '+ Add image or video', picker),
    h('small', null, 'or drop files here. They are written to the media folder when you save.'),
  );
  element.addEventListener('dragover', (event) => {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    element.classList.add('drop-here');
  });
  element.addEventListener('dragleave', () => element.classList.remove('drop-here'));
  element.addEventListener('drop', (event) => {
    element.classList.remove('drop-here');
    if (event.dataTransfer === null || event.dataTransfer.files.length === 0) return;
    event.preventDefault();
    add(event.dataTransfer.files);
  });

  function drawList(): void {
    list.replaceChildren(...items.map((item, index) => row(item, index)));
  }
  function draw(): void {
    drawList();
    onChange();
  }

  function row(item: MediaItem, index: number): HTMLElement {
    const name = item.file?.name ?? item.path ?? '';
    const alt = h('input', { 'data-media-alt': index, value: item.alt, placeholder: 'Alt text: what it shows', 'aria-label': `Alt text of ${name}`, dir: 'auto' }) as HTMLInputElement;
    alt.addEventListener('input', () => {
      item.alt = alt.value;
      onChange();
    });
    const replacer = h('input', { type: 'file', accept: ACCEPT, 'data-media-replace': index, 'aria-label': `Replace ${name}` }) as HTMLInputElement;
    replacer.addEventListener('change', () => {
      const file = replacer.files?.[0];
      if (file === undefined) return;
      item.file = file;
      item.shown = pickedShown(file);
      draw();
    });
    return h(
      'li',
      { class: 'edit-media-item', 'data-media': index },
      h('div', { class: `thumb${item.shown.kind === 'video' ? ' video' : ''}` }, item.shown.src === null ? h('span', null, item.shown.kind) : h('img', { src: withPageToken(item.shown.src), alt: '' })),
      h('div', { class: 'edit-media-body' },
        h('div', { class: 'mono', dir: 'auto' }, name, item.file === undefined ? null : h('small', null, item.origin === null ? ' · new: added on save' : ' · replaces it on save')),
        alt,
        h('div', { class: 'edit-media-actions' },
          h('button', { class: 'btn', type: 'button', 'data-media-up': index, disabled: index === 0, 'aria-label': `Move ${name} up`, onclick: () => move(index, -1) }, '↑'),
          h('button', { class: 'btn', type: 'button', 'data-media-down': index, disabled: index === items.length - 1, 'aria-label': `Move ${name} down`, onclick: () => move(index, 1) }, '↓'),
          h('label', { class: 'btn' }, 'Replace…', replacer),
          h('button', { class: 'btn', type: 'button', 'data-media-remove': index, 'aria-label': `Remove ${name} from the post`, onclick: () => (items.splice(index, 1), draw()) }, 'Remove'),
        ),
      ),
    );
  }
  /** Moves a file one place up or down; the keyboard stays on the file moved (its button, or the other one at an end). */
  function move(index: number, by: -1 | 1): void {
    const [item] = items.splice(index, 1);
    items.splice(index + by, 0, item!);
    draw();
    const buttons = [`[data-media-${by < 0 ? 'up' : 'down'}="${index + by}"]`, `[data-media-${by < 0 ? 'down' : 'up'}="${index + by}"]`].map((selector) => list.querySelector<HTMLButtonElement>(selector));
    buttons.find((button) => button !== null && !button.disabled)?.focus();
  }
  drawList();

  return {
    element,
    shown: () => items.map((item) => ({ kind: item.shown.kind, path: item.path ?? item.file?.name ?? '', src: item.shown.src, ...(item.alt === '' ? {} : { alt: item.alt }) })),
    async edits(upload) {
      for (const item of items) {
        if (item.file === undefined) continue;
        const added = await upload(item.file);
        if (typeof added === 'string') return added;
        item.path = added.path;
        item.file = undefined;
      }
      return mediaEdits(before, items);
    },
    misfits: (accounts) => accounts.flatMap((account) => misfitsOf(account, items)),
  };
}

/** The edits that make `media:` (as `before`) the list `after`: removals, changes in place, additions, then moves. */
function mediaEdits(before: readonly { path: string | null; alt: string }[], after: readonly MediaItem[]): PostEdit[] {
  const edits: PostEdit[] = [];
  const kept = new Set(after.flatMap((item) => (item.origin === null ? [] : [item.origin])));
  for (let origin = before.length - 1; origin >= 0; origin--) if (!kept.has(origin)) edits.push({ kind: 'media-remove', index: origin });
  // The list now holds the kept files in their first order, then the added ones.
  const current: MediaItem[] = after.filter((item) => item.origin !== null).sort((a, b) => a.origin! - b.origin!);
  current.forEach((item, index) => {
    const was = before[item.origin!]!;
    if (item.path !== was.path) edits.push({ kind: 'media-path', index, path: item.path! });
    if (item.alt.trim() !== was.alt) edits.push({ kind: 'media-alt', index, alt: item.alt.trim() });
  });
  for (const item of after) {
    if (item.origin !== null) continue;
    edits.push({ kind: 'media-add', path: item.path!, ...(item.alt.trim() === '' ? {} : { alt: item.alt.trim() }) });
    current.push(item);
  }
  after.forEach((item, index) => {
    const from = current.indexOf(item);
    if (from === index) return;
    edits.push({ kind: 'media-move', from, to: index });
    current.splice(from, 1);
    current.splice(index, 0, item);
  });
  return edits;
}

/** Why `account` cannot take the files: their count, types and sizes as the page knows them. */
function misfitsOf(account: CalendarAccount, items: readonly MediaItem[]): string[] {
  if (account.media === null) return [];
  const { maxFiles, maxVideos, mixed } = account.media;
  const videos = items.filter((item) => item.shown.kind === 'video').length;
  // The first count it breaks (a post with too many files is often mixed too: one sentence says enough).
  const count = [
    items.length > maxFiles ? `${account.label} takes at most ${maxFiles} ${maxFiles === 1 ? 'file' : 'files'} a post (this one has ${items.length})` : null,
    videos > maxVideos ? `${account.label} takes at most ${maxVideos} ${maxVideos === 1 ? 'video' : 'videos'} a post (this one has ${videos})` : null,
    !mixed && videos > 0 && videos < items.length ? `${account.label} takes images or videos in a post, not both` : null,
  ].find((text) => text !== null);
  return [...(count === undefined || count === null ? [] : [count]), ...items.flatMap((item) => {
    const { kind, type, sizeBytes } = item.shown;
    const rules: AccountMedia['images'] | undefined = kind === 'video' ? account.media!.videos : kind === 'image' ? account.media!.images : undefined;
    const name = item.file?.name ?? item.path ?? '';
    const noun = kind === 'video' ? 'videos' : 'images';
    if (rules === undefined) return [];
    if (rules.types.length === 0) return [`${account.label} takes no ${noun} (${name})`];
    if (type !== undefined && type !== '' && !rules.types.includes(type)) return [`${account.label} takes ${noun} of type ${rules.types.join(', ')}, not ${type} (${name})`];
    if (sizeBytes !== undefined && sizeBytes > rules.maxBytes) return [`${account.label} takes ${noun} of at most ${megabytes(rules.maxBytes)}; ${name} is ${megabytes(sizeBytes)}`];
    return [];
  })];
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function pickedShown(file: File): MediaItem['shown'] {
  const kind = file.type.startsWith('video/') ? 'video' : 'image';
  return { kind, type: file.type, sizeBytes: file.size, src: kind === 'image' ? URL.createObjectURL(file) : null };
}
