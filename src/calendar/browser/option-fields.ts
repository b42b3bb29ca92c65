import type { PostEdit } from '../../post-edit/edit-post.js';
import type { CalendarAccount, CalendarTarget } from '../model.js';
import { h } from './dom.js';

/** The option fields of one account in the editor, and the edits their changes make. */
export interface OptionFields {
  element: HTMLElement;
  /** One `option` edit per changed or added value, for the account written as `name` in the file. */
  edits(name: string): PostEdit[];
}

/**
 * An account's platform options as the post has them (`vidATitle: Launch`), each in a field, and a
 * field pair to add one. A value is written as YAML reads it: `yes`/`true` and `no`/`false` as
 * booleans, a number as a number, anything else as text. A list (`vidATags`) is shown, not edited
 * here: a list is edited in the file.
 */
export function optionFields(account: CalendarAccount, target: CalendarTarget | undefined): OptionFields {
  const shown = target?.options ?? [];
  const inputs = shown.map((option) => {
    const list = option.value.includes(', ');
    return { option, list, input: h('input', { 'data-option': option.name, value: option.value, ...(list ? { disabled: true, title: 'A list: edit it in the file' } : {}) }) as HTMLInputElement };
  });
  const newName = h('input', { 'data-option-name': account.id, placeholder: 'option', 'aria-label': `New option of ${account.label}`, pattern: '[A-Za-z][A-Za-z0-9]*' }) as HTMLInputElement;
  const newValue = h('input', { 'data-option-value': account.id, placeholder: 'value', 'aria-label': `Its value` }) as HTMLInputElement;
  const element = h(
    'div',
    { class: 'edit-options', 'data-account': account.id },
    h('small', null, `Options of ${account.label}${account.platform === null ? '' : ` (${account.platform})`}`),
    inputs.map(({ option, input }) => h('label', { class: 'edit-option' }, `${option.name} `, input)),
    h('span', { class: 'edit-option' }, newName, newValue),
  );
  return {
    element,
    edits(name) {
      const edits: PostEdit[] = inputs
        .filter(({ option, list, input }) => !list && input.value !== option.value)
        .map(({ option, input }) => ({ kind: 'option', account: name, name: option.name, value: yamlValue(input.value) }));
      if (/^[A-Za-z][A-Za-z0-9]*$/.test(newName.value.trim()) && newValue.value.trim() !== '') edits.push({ kind: 'option', account: name, name: newName.value.trim(), value: yamlValue(newValue.value) });
      return edits;
    },
  };
}

function yamlValue(text: string): string | number | boolean {
  const value = text.trim();
  if (/^(yes|true)$/i.test(value)) return true;
  if (/^(no|false)$/i.test(value)) return false;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}
