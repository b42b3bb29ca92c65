import type { Style } from './style.js';

export interface Column {
  header: string;
  /** Numbers read best right-aligned. Default left. */
  align?: 'left' | 'right';
}

const ANSI = /\x1b\[[0-9;]*m/g;

/** Width on a terminal: colour codes take none; each code point counts one (wide CJK glyphs are rare in these tables). */
export function visibleWidth(text: string): number {
  return [...text.replace(ANSI, '')].length;
}

function pad(text: string, width: number, align: Column['align']): string {
  const fill = ' '.repeat(Math.max(0, width - visibleWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

/**
 * A plain-text table: a header row, a rule, the rows, and an optional footer row (totals) under
 * a second rule. Cells may carry colour; widths ignore it. Trailing spaces are trimmed.
 */
export function renderTable(columns: readonly Column[], rows: readonly (readonly string[])[], options: { style: Style; footer?: readonly string[]; indent?: string }): string {
  const all = [columns.map((column) => column.header), ...rows, ...(options.footer ? [options.footer] : [])];
  const widths = columns.map((_, index) => Math.max(...all.map((row) => visibleWidth(row[index] ?? ''))));
  const indent = options.indent ?? '';
  const line = (cells: readonly string[]) => `${indent}${cells.map((cell, index) => pad(cell, widths[index]!, columns[index]!.align)).join('  ')}`.trimEnd();
  const rule = `${indent}${options.style.dim(widths.map((width) => '─'.repeat(width)).join('  '))}`;
  const out = [options.style.bold(line(columns.map((column) => column.header))), rule, ...rows.map(line)];
  if (options.footer) out.push(rule, options.style.bold(line(options.footer)));
  return out.join('\n');
}
