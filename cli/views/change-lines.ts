import type { Action, Change } from '../../src/plan/types.js';
import { preview } from './format.js';
import type { Style } from './style.js';

/** The one-character mark of each action, as every view shows it. */
export const ACTION_SYMBOLS: Record<Action, string> = { create: '+', adopt: '≡', update: '~', unschedule: '↓', delete: '-', move: '→', noop: '=', blocked: '!' };

function colourFor(change: Change, style: Style): (text: string) => string {
  if (change.action === 'noop') return style.dim;
  return { create: style.green, adopt: style.green, update: style.yellow, unschedule: style.yellow, move: style.yellow, delete: style.red, blocked: style.magenta }[change.action];
}

/**
 * A change as lines: mark, action, key (old → new for a move), file, reasons, and for updates (or
 * verbose) the field diffs. `underFile`: shown under a heading naming its file (a repeat's
 * occurrences), so indented one step more and without the file.
 */
export function changeLines(change: Change, style: Style, options: { verbose?: boolean; underFile?: boolean } = {}): string[] {
  const name = change.fromKey ? `${change.fromKey} → ${change.key}` : change.key;
  const head = `${ACTION_SYMBOLS[change.action]} ${change.action.padEnd(7)} ${name}`;
  const file = change.file && !options.underFile ? style.dim(`  (${change.file})`) : '';
  const indent = options.underFile ? '  ' : '';
  const lines = [`${indent}  ${colourFor(change, style)(head)}${file}`];
  for (const reason of change.reasons) lines.push(`${indent}      ${style.dim(reason)}`);
  const fields = change.action === 'update' || options.verbose ? change.fields ?? [] : [];
  for (const field of fields) lines.push(`${indent}      ${field.field}: ${preview(field.before)} → ${preview(field.after)}`);
  return lines;
}
