import { cutCaption } from '../caption-cut.js';
import type { PostEdit } from '../../post-edit/edit-post.js';
import type { CalendarAccount, CalendarMedia, CalendarPost, CalendarTarget } from '../model.js';
import { bodyOf, occurrenceOf, type AddedMedia, type EditablePostFile, type Rendered } from './edit-client.js';
import { preview } from './details.js';
import { h } from './dom.js';
import { mediaFields } from './media-fields.js';
import { optionFields } from './option-fields.js';

/** What the editor is opened on: the file as read, and the post the page shows of it (none yet for a new draft). */
export interface EditorInput {
  source: EditablePostFile;
  post: CalendarPost | undefined;
  accounts: readonly CalendarAccount[];
  /** Shown above the form: a conflict, a refusal. */
  message?: string;
  /** The typed text as the networks would get it (`{{ }}` filled in). */
  render: (text: string) => Promise<Rendered>;
  /** Adds a picked media file to the project for this post, checked against the chosen accounts (ids). */
  upload: (file: File, accounts: readonly string[]) => Promise<AddedMedia | string>;
  onSave: (edits: PostEdit[]) => void;
  onClose: () => void;
}

/**
 * The editor of one post in the details panel: its time, its text as written in the file (`{{ }}`
 * and all), its accounts and their options, with each account's preview and counter as the text is
 * typed. Saving sends only what changed, as edits (post-edit), which the server writes at once.
 */
export function editor(input: EditorInput): HTMLElement {
  const { post, source } = input;
  const occurrence = post === undefined ? undefined : occurrenceOf(post.key);
  // An occurrence's own text is what the page shows; any other post's is its body as written.
  const startText = occurrence !== undefined && post !== undefined ? post.text : bodyOf(source.text);
  const startTime = post?.slot === null || post?.slot === undefined ? scheduledAtOf(source.text) : `${post.slot.day} ${post.slot.time}`;
  const written = new Map((post?.targets ?? []).map((target) => [target.account, target]));
  const time = h('input', { id: 'edit-time', name: 'time', value: startTime, placeholder: 'YYYY-MM-DD HH:mm (empty: a draft)', pattern: '\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}', autocomplete: 'off' });
  const wasDraft = post === undefined ? startTime === '' || /^draft:[ \t]*true/m.test(source.text) : post.draft;
  const draft = h('input', { type: 'checkbox', id: 'edit-draft', name: 'draft', ...(wasDraft ? { checked: true } : {}) }) as HTMLInputElement;
  const text = h('textarea', { id: 'edit-text', name: 'text', rows: 8, dir: 'auto' }) as HTMLTextAreaElement;
  text.value = startText;
  const boxes = input.accounts.map((account) => h('input', { type: 'checkbox', name: 'account', value: account.id, 'data-account': account.id, ...(written.has(account.id) || (post === undefined && accountsOf(source.text).includes(account.label)) ? { checked: true } : {}) }) as HTMLInputElement);
  const options = input.accounts.map((account) => optionFields(account, written.get(account.id), source.texts?.[written.get(account.id)?.label ?? ''] ?? ''));
  const showOptions = () => boxes.forEach((box, index) => (options[index]!.element.hidden = !box.checked));
  for (const box of boxes) box.addEventListener('change', showOptions);
  showOptions();
  const previews = h('div', { class: 'section edit-previews', 'aria-live': 'polite' });
  const chosenIds = () => boxes.filter((box) => box.checked).map((box) => box.value);
  let rendered: Rendered = { text: text.value, problems: [] };
  /** Each account's own text, rendered (absent: it has none). */
  let ownRendered = new Map<string, Rendered>();
  // The editor's media list (none for one occurrence of a repeat: its files are the repeat's).
  const media = occurrence === undefined ? mediaFields(source, post?.media ?? [], () => drawPreviews()) : null;
  const typedOptions = new Map(input.accounts.map((account, index) => [account.id, () => options[index]!.current()]));
  const drawPreviews = () => previews.replaceChildren(...livePreviews({ rendered, own: ownRendered, options: typedOptions, post, media: media?.shown() ?? post?.media ?? [], accounts: input.accounts, chosen: chosenIds() }));
  // Rendered by the watch as it is typed; an answer for a text typed over since is dropped.
  let asked = 0;
  const draw = () => {
    const turn = ++asked;
    const owns = input.accounts.map((account, index) => [account.id, options[index]!.ownText.value.trim()] as const).filter(([, own]) => own !== '');
    void Promise.all([input.render(text.value), ...owns.map(([, own]) => input.render(own))]).then(([body, ...answers]) => {
      if (turn !== asked) return;
      rendered = body!;
      ownRendered = new Map(owns.map(([id], index) => [id, answers[index]!]));
      drawPreviews();
    });
  };
  text.addEventListener('input', draw);
  for (const option of options) {
    option.ownText.addEventListener('input', draw);
    // An option typed (a title) shows in the preview at once.
    option.element.addEventListener('input', (event) => event.target !== option.ownText && drawPreviews());
  }
  for (const box of boxes) box.addEventListener('change', () => {
    warned = false;
    drawPreviews();
  });
  drawPreviews();
  draw();
  const warning = h('div', { class: 'edit-warning', role: 'alert', hidden: true });
  const warn = (message: string) => {
    warning.textContent = message;
    warning.hidden = false;
  };
  /** A save that puts the post on an account that cannot take its media is made on the second click, once told (what the file had already is not told again). */
  let warned = false;
  const chosenAccounts = () => input.accounts.filter((account) => chosenIds().includes(account.id));
  const misfitsBefore = new Set(media?.misfits(chosenAccounts()) ?? []);

  const save = async (event: Event) => {
    event.preventDefault();
    const misfits = (media?.misfits(chosenAccounts()) ?? []).filter((misfit) => !misfitsBefore.has(misfit));
    if (misfits.length > 0 && !warned) {
      warned = true;
      return warn(`${misfits.join('; ')}. The plan would block this post. Save again to save it anyway, or change its accounts or media.`);
    }
    const mediaEdits = media === null ? [] : await media.edits((file) => input.upload(file, chosenIds()));
    if (typeof mediaEdits === 'string') return warn(mediaEdits);
    const edits: PostEdit[] = [];
    const at = time.value.trim();
    const which = occurrence === undefined ? {} : { occurrence };
    const toDraft = draft.checked || at === '';
    if (toDraft && !wasDraft) edits.push({ kind: 'unschedule', ...which });
    if (!toDraft && (wasDraft || at !== startTime)) edits.push({ kind: 'schedule', at, ...which });
    if (text.value.trim() !== startText.trim()) edits.push({ kind: 'text', text: text.value.trim(), ...(occurrence === undefined ? {} : { occurrence }) });
    const chosen = boxes.filter((box) => box.checked).map((box) => nameInFile(input.accounts.find((account) => account.id === box.value)!, written));
    const before = boxes.filter((box) => box.defaultChecked).map((box) => nameInFile(input.accounts.find((account) => account.id === box.value)!, written));
    if (occurrence === undefined && chosen.join('\n') !== before.join('\n')) edits.push({ kind: 'accounts', accounts: chosen });
    // After the accounts: an option of an account added in this save goes into its new entry.
    if (occurrence === undefined) boxes.forEach((box, index) => box.checked && edits.push(...options[index]!.edits(nameInFile(input.accounts[index]!, written))));
    edits.push(...mediaEdits);
    if (edits.length === 0) return input.onClose();
    input.onSave(edits);
  };
  return h(
    'form',
    { class: 'editor', 'data-file': source.file, 'data-version': source.version, onsubmit: (event: Event) => void save(event) },
    h('div', { class: 'details-head' }, h('h2', { id: 'details-title' }, `Edit ${post?.key ?? source.file}`), h('button', { class: 'btn', type: 'button', onclick: input.onClose }, 'Cancel')),
    input.message === undefined ? null : h('div', { class: 'edit-message', role: 'alert' }, input.message),
    h('div', { class: 'mono', 'data-field': 'file' }, source.file, occurrence === undefined ? null : ` · the occurrence of ${occurrence} (written under occurrences:)`),
    h('label', { class: 'edit-field' }, 'Time (project time zone)', time),
    h('label', { class: 'edit-account' }, draft, ' Draft: not scheduled (unchecked with a time: scheduled then)'),
    h('label', { class: 'edit-field' }, 'Text, as written in the file', text),
    media?.element,
    occurrence !== undefined ? null : h('fieldset', { class: 'edit-field' }, h('legend', null, 'Accounts and their options'), input.accounts.map((account, index) => [h('label', { class: 'edit-account' }, boxes[index]!, ` ${account.label}`, account.platform === null ? null : h('small', null, ` ${account.platform}`)), options[index]!.element])),
    previews,
    warning,
    h('div', { class: 'edit-actions' }, h('button', { class: 'btn primary', type: 'submit' }, 'Save to the file')),
  );
}

/** Each chosen account's preview of the rendered text, cut and counted in its unit as the network would (details.ts draws it). */
function livePreviews(input: { rendered: Rendered; own: ReadonlyMap<string, Rendered>; options: ReadonlyMap<string, () => CalendarTarget['options']>; post: CalendarPost | undefined; media: CalendarMedia[]; accounts: readonly CalendarAccount[]; chosen: readonly string[] }): HTMLElement[] {
  const byId = new Map(input.accounts.map((account) => [account.id, account]));
  const { text } = input.rendered;
  const shownPost = { ...(input.post ?? { key: '' }), media: input.media, text } as CalendarPost;
  const problems = new Set(input.rendered.problems);
  const items = input.chosen.map((id) => {
    const account = byId.get(id);
    const written = input.post?.targets.find((target) => target.account === id);
    // An account's own text, when it has one, is what it gets instead of the post's.
    const own = input.own.get(id);
    for (const problem of own?.problems ?? []) problems.add(problem);
    const cut = cutCaption(own?.text ?? text, (account?.unit ?? 'characters') as Parameters<typeof cutCaption>[1], account?.maxLength ?? null);
    // Its remote status as the calendar has it (an account added here has none yet).
    const target: CalendarTarget = { account: id, label: account?.label ?? id, status: written?.status ?? null, ...(written?.error === undefined ? {} : { error: written.error }), override: own !== undefined, shown: cut.shown, overflow: cut.overflow, length: cut.length, options: input.options.get(id)?.() ?? written?.options ?? [] };
    return preview(target, shownPost, byId);
  });
  return [h('h3', null, 'Preview per account'), ...[...problems].map((problem) => h('div', { class: 'diag error' }, problem)), ...items];
}

/** The name an account is written as in `targets:`: as the file writes it, else its alias, else its id. */
function nameInFile(account: CalendarAccount, written: ReadonlyMap<string, CalendarTarget>): string {
  return written.get(account.id)?.label ?? (account.label === account.handle ? account.id : account.label);
}

function scheduledAtOf(text: string): string {
  const value = /^scheduledAt:[ \t]*["']?(\d{4}-\d{2}-\d{2} \d{2}:\d{2})/m.exec(text)?.[1];
  return value ?? '';
}

function accountsOf(text: string): string[] {
  return /^targets:[ \t]*\[([^\]]*)\]/m.exec(text)?.[1]?.split(',').map((name) => name.trim()).filter(Boolean) ?? [];
}
