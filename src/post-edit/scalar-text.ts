import { parse, Scalar } from 'yaml';

/** A value an edit writes: a YAML scalar. */
export type ScalarValue = string | number | boolean | null;

/**
 * `value` as YAML text in the style `like` was written in (quotes kept), or plain when it reads
 * back as the same value, else double-quoted (JSON's escapes are YAML's). Block scalars and
 * multi-line text become double-quoted: one line, which reads back the same.
 */
export function scalarText(value: ScalarValue, like?: Scalar.Type): string {
  if (typeof value !== 'string') return String(value);
  if (like === Scalar.QUOTE_DOUBLE || value.includes('\n')) return JSON.stringify(value);
  if (like === Scalar.QUOTE_SINGLE) return `'${value.replaceAll("'", "''")}'`;
  return readsBackAs(value) ? value : JSON.stringify(value);
}

/** Whether `text`, written plain as a mapping value (flow or block), reads back as that string. */
function readsBackAs(text: string): boolean {
  if (text === '' || text !== text.trim() || /[,[\]{}]/.test(text)) return false;
  try {
    return (parse(`k: ${text}`) as { k?: unknown } | null)?.k === text;
  } catch {
    return false;
  }
}
