import type { PostEdit } from '../../post-edit/edit-post.js';
import type { CalendarAccount, CalendarTarget } from '../model.js';
import { h } from './dom.js';

/** The fields of one account in the editor (its own text, its options), and the edits their changes make. */
export interface OptionFields {
  element: HTMLElement;
  /** The account's own text as typed (empty: it gets the post's text). */
  ownText: HTMLTextAreaElement;
  /** The options as typed, as the preview shows them. */
  current(): CalendarTarget['options'];
  /** One edit per changed or added value, for the account written as `name` in the file. */
  edits(name: string): PostEdit[];
}

/**
 * An account's own text (`content:` of its entry, `{{ }}` and all) and its platform options as the
 * post has them (`vidATitle: Launch`), each in a field, and a field pair to add one. A value is
 * written as YAML reads it: `yes`/`true` and `no`/`false` as booleans, a number as a number,
 * anything else as text. A list (a value the file writes as a list, or an option the account's
 * rules say is one: `vidATags`) is edited one item per line, and written as a list.
 */
export function optionFields(account: CalendarAccount, target: CalendarTarget | undefined, own: string): OptionFields {
  const shown = target?.options ?? [];
  const ownText = h('textarea', { 'data-own-text': account.id, rows: 2, dir: 'auto', placeholder: 'Empty: the post\'s text', 'aria-label': `Own text of ${account.label}` }) as HTMLTextAreaElement;
  ownText.value = own;
  const inputs = shown.map((option) => {
    const list = option.list !== undefined || account.listOptions.includes(option.name);
    const items = option.list ?? (list ? [option.value] : []);
    const input = list
      ? (h('textarea', { 'data-option': option.name, 'data-list': true, rows: Math.max(2, items.length + 1), title: 'A list: one item per line' }) as HTMLTextAreaElement)
      : (h('input', { 'data-option': option.name, value: option.value }) as HTMLInputElement);
    input.value = list ? items.join('\n') : option.value;
    // A list's box grows with its items.
    if (list) input.addEventListener('input', () => ((input as HTMLTextAreaElement).rows = Math.max(2, input.value.split('\n').length + 1)));
    return { option, list, input };
  });
  const newName = h('input', { 'data-option-name': account.id, placeholder: 'option', 'aria-label': `New option of ${account.label}`, pattern: '[A-Za-z][A-Za-z0-9]*' }) as HTMLInputElement;
  const newValue = h('input', { 'data-option-value': account.id, placeholder: 'value', 'aria-label': 'Its value (a list: comma-separated)' }) as HTMLInputElement;
  const element = h(
    'div',
    { class: 'edit-options', 'data-account': account.id },
    h('small', null, `Options of ${account.label}${account.platform === null ? '' : ` (${account.platform})`}`),
    h('label', { class: 'edit-own' }, 'Own text (content:) ', ownText),
    inputs.map(({ option, input, list }) => h('label', { class: list ? 'edit-option edit-list' : 'edit-option' }, `${option.name}${list ? ' (one per line)' : ''} `, input)),
    h('span', { class: 'edit-option' }, newName, newValue),
  );
  const added = (): { name: string; value: string | number | boolean | string[] } | null => {
    const name = newName.value.trim();
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name) || newValue.value.trim() === '') return null;
    return { name, value: account.listOptions.includes(name) ? listItems(newValue.value, ',') : yamlValue(newValue.value) };
  };
  return {
    element,
    ownText,
    current() {
      const typed = inputs.map(({ option, list, input }) => (list ? { name: option.name, value: listItems(input.value, '\n').join(', '), list: listItems(input.value, '\n') } : { name: option.name, value: input.value }));
      const extra = added();
      if (extra === null) return typed;
      return [...typed, Array.isArray(extra.value) ? { name: extra.name, value: extra.value.join(', '), list: extra.value } : { name: extra.name, value: String(extra.value) }];
    },
    edits(name) {
      const edits: PostEdit[] = [];
      if (ownText.value.trim() !== own.trim()) edits.push({ kind: 'target-text', account: name, text: ownText.value.trim() });
      for (const { option, list, input } of inputs) {
        if (!list && input.value !== option.value) edits.push({ kind: 'option', account: name, name: option.name, value: yamlValue(input.value) });
        const items = listItems(input.value, '\n');
        if (list && items.join('\n') !== (option.list ?? [option.value]).join('\n')) edits.push({ kind: 'option', account: name, name: option.name, value: items });
      }
      const extra = added();
      if (extra !== null) edits.push({ kind: 'option', account: name, name: extra.name, value: extra.value });
      return edits;
    },
  };
}

function listItems(text: string, separator: string): string[] {
  return text.split(separator).map((item) => item.trim()).filter((item) => item !== '');
}

function yamlValue(text: string): string | number | boolean {
  const value = text.trim();
  if (/^(yes|true)$/i.test(value)) return true;
  if (/^(no|false)$/i.test(value)) return false;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}
