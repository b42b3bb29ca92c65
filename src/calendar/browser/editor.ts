import { cutCaption } from '../caption-cut.js';
import type { PostEdit } from '../../post-edit/edit-post.js';
import type { CalendarAccount, CalendarPost, CalendarTarget } from '../model.js';
import { bodyOf, occurrenceOf, type PostSource, type Rendered } from './edit-client.js';
import { preview } from './details.js';
import { h } from './dom.js';
import { optionFields } from './option-fields.js';

/** What the editor is opened on: the file as read, and the post the page shows of it (none yet for a new draft). */
export interface EditorInput {
  source: PostSource;
  post: CalendarPost | undefined;
  accounts: readonly CalendarAccount[];
  /** Shown above the form: a conflict, a refusal. */
  message?: string;
  /** The typed text as the networks would get it (`{{ }}` filled in). */
  render: (text: string) => Promise<Rendered>;
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
  const options = input.accounts.map((account) => optionFields(account, written.get(account.id)));
  const showOptions = () => boxes.forEach((box, index) => (options[index]!.element.hidden = !box.checked));
  for (const box of boxes) box.addEventListener('change', showOptions);
  showOptions();
  const previews = h('div', { class: 'section edit-previews', 'aria-live': 'polite' });
  let rendered: Rendered = { text: text.value, problems: [] };
  const drawPreviews = () => previews.replaceChildren(...livePreviews({ rendered, post, accounts: input.accounts, chosen: boxes.filter((box) => box.checked).map((box) => box.value) }));
  // Rendered by the watch as it is typed; an answer for a text typed over since is dropped.
  let asked = 0;
  const draw = () => {
    const turn = ++asked;
    const typed = text.value;
    void input.render(typed).then((answer) => {
      if (turn !== asked) return;
      rendered = answer;
      drawPreviews();
    });
  };
  text.addEventListener('input', draw);
  for (const box of boxes) box.addEventListener('change', drawPreviews);
  drawPreviews();
  draw();

  const save = (event: Event) => {
    event.preventDefault();
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
    if (edits.length === 0) return input.onClose();
    input.onSave(edits);
  };
  return h(
    'form',
    { class: 'editor', 'data-file': source.file, 'data-version': source.version, onsubmit: save },
    h('div', { class: 'details-head' }, h('h2', { id: 'details-title' }, `Edit ${post?.key ?? source.file}`), h('button', { class: 'btn', type: 'button', onclick: input.onClose }, 'Cancel')),
    input.message === undefined ? null : h('div', { class: 'edit-message', role: 'alert' }, input.message),
    h('div', { class: 'mono', 'data-field': 'file' }, source.file, occurrence === undefined ? null : ` · the occurrence of ${occurrence} (written under occurrences:)`),
    h('label', { class: 'edit-field' }, 'Time (project time zone)', time),
    h('label', { class: 'edit-account' }, draft, ' Draft: not scheduled (unchecked with a time: scheduled then)'),
    h('label', { class: 'edit-field' }, 'Text, as written in the file', text),
    occurrence !== undefined ? null : h('fieldset', { class: 'edit-field' }, h('legend', null, 'Accounts and their options'), input.accounts.map((account, index) => [h('label', { class: 'edit-account' }, boxes[index]!, ` ${account.label}`, account.platform === null ? null : h('small', null, ` ${account.platform}`)), options[index]!.element])),
    previews,
    h('div', { class: 'edit-actions' }, h('button', { class: 'btn primary', type: 'submit' }, 'Save to the file')),
  );
}

/** Each chosen account's preview of the rendered text, cut and counted in its unit as the network would (details.ts draws it). */
function livePreviews(input: { rendered: Rendered; post: CalendarPost | undefined; accounts: readonly CalendarAccount[]; chosen: readonly string[] }): HTMLElement[] {
  const byId = new Map(input.accounts.map((account) => [account.id, account]));
  const { text, problems } = input.rendered;
  const shownPost = { ...(input.post ?? { key: '', media: [] }), text } as CalendarPost;
  const items = input.chosen.map((id) => {
    const account = byId.get(id);
    const own = input.post?.targets.find((target) => target.account === id);
    const cut = cutCaption(text, (account?.unit ?? 'characters') as Parameters<typeof cutCaption>[1], account?.maxLength ?? null);
    const target: CalendarTarget = { account: id, label: account?.label ?? id, status: null, override: false, shown: cut.shown, overflow: cut.overflow, length: cut.length, options: own?.options ?? [] };
    return preview(target, shownPost, byId);
  });
  return [h('h3', null, 'Preview per account'), ...problems.map((problem) => h('div', { class: 'diag error' }, problem)), ...items];
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
