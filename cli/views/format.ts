export { formatBytes as bytes, plural } from '../../src/media/format.js';

/** Short, single-line rendering of a value in a diff. */
export function preview(value: unknown, max = 60): string {
  if (value === undefined) return '(none)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
