import { joinTerminal, padTerminal, term, terminalWidth, trimTerminalEnd, type Terminal } from '../../src/text/terminal.js';
import type { Style } from './style.js';

export interface Column {
  header: string;
  /** Numbers read best right-aligned. Default left. */
  align?: 'left' | 'right';
}

const EMPTY = term``;

/**
 * A plain-text table: a header row, a rule, the rows, and an optional footer row (totals) under
 * a second rule. Cells may carry colour; widths ignore it. Trailing spaces are trimmed.
 */
export function renderTable(columns: readonly Column[], rows: readonly (readonly Terminal[])[], options: { style: Style; footer?: readonly Terminal[]; indent?: string }): Terminal {
  const headers = columns.map((column) => term`${column.header}`);
  const all = [headers, ...rows, ...(options.footer ? [options.footer] : [])];
  const widths = columns.map((_, index) => Math.max(...all.map((row) => terminalWidth(row[index] ?? EMPTY))));
  const indent = options.indent ?? '';
  const line = (cells: readonly Terminal[]) => trimTerminalEnd(term`${indent}${joinTerminal(cells.map((cell, index) => padTerminal(cell, widths[index]!, columns[index]!.align)), '  ')}`);
  const rule = term`${indent}${options.style.dim(term`${widths.map((width) => '─'.repeat(width)).join('  ')}`)}`;
  const out = [options.style.bold(line(headers)), rule, ...rows.map(line)];
  if (options.footer) out.push(rule, options.style.bold(line(options.footer)));
  return joinTerminal(out, '\n');
}
