import type { FieldChange } from './types.js';

const ACCOUNT_TEXT = /^targets\[([^\]]+)\]\.contentOverride$/;

/**
 * The two texts of a change of a post's text: `content`, or an account's own text
 * (`targets[<id>].contentOverride`, with its `account` id; a side without one is the empty text).
 * Null for any other field.
 */
export function textChangeOf(field: FieldChange): { before: string; after: string; account?: string } | null {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  if (field.field === 'content') return { before: text(field.before), after: text(field.after) };
  const account = ACCOUNT_TEXT.exec(field.field)?.[1];
  return account === undefined ? null : { before: text(field.before), after: text(field.after), account };
}
