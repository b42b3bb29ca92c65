import type { Action, Change } from '../../src/plan/types.js';
import { reasonSentences } from '../../src/plan-words/reason-words.js';
import { preview, shownTime } from './format.js';
import type { Colour, Style } from './style.js';
import { fieldOriginPieces, viaText } from './field-origins.js';
import { createLines } from './create-lines.js';
import { fieldDiffLines } from './field-diff.js';
import { term, terminalPath, type Terminal } from '../../src/text/terminal.js';

/** The one-character mark of each action, as every view shows it. */
export const ACTION_SYMBOLS: Record<Action, string> = { create: '+', adopt: '≡', update: '~', unschedule: '↓', delete: '-', move: '→', noop: '=', blocked: '!' };

function colourFor(change: Change, style: Style): Colour {
  if (change.action === 'noop') return style.dim;
  return { create: style.green, adopt: style.green, update: style.yellow, unschedule: style.yellow, move: style.yellow, delete: style.red, blocked: style.magenta }[change.action];
}

/** How changeLines shows a change. */
export interface ChangeLineOptions {
  timezone: string;
  verbose?: boolean;
  underFile?: boolean;
  /** A changed text whole, with its changes marked, instead of the changed words in context (`--full-text`). */
  fullText?: boolean;
  /** Account id → its alias in postsync.yaml, to name accounts by. */
  aliases?: ReadonlyMap<string, string>;
}

const NO_ALIASES: ReadonlyMap<string, string> = new Map();

/** A change's key, or for a move `old → new`. */
export function changeName(change: Pick<Change, 'key' | 'fromKey'>): Terminal {
  return change.fromKey ? term`${change.fromKey} → ${change.key}` : term`${change.key}`;
}

/**
 * A change as lines: mark, action, key (old → new for a move), file, reasons, and for updates (or
 * verbose) the field diffs. `underFile`: shown under a heading naming its file (a repeat's
 * occurrences), so indented one step more and without the file. Times are shown on the clock of
 * `timezone`, the project's.
 */
export function changeLines(change: Change, style: Style, options: ChangeLineOptions): Terminal[] {
  const head = term`${ACTION_SYMBOLS[change.action]} ${change.action.padEnd(7)} ${changeName(change)}`;
  const file = change.file && !options.underFile ? style.dim(term`  (${terminalPath(change.file)})`) : term``;
  const indent = options.underFile ? '  ' : '';
  const lines = [term`${indent}  ${colourFor(change, style)(head)}${file}`];
  for (const reason of reasonSentences(change, { accounts: options.aliases ?? NO_ALIASES })) lines.push(term`${indent}      ${style.dim(term`${reason}`)}`);
  const detail = { full: options.fullText === true, indent: `${indent}      `, aliases: options.aliases ?? NO_ALIASES };
  if (change.action === 'create' && !options.underFile) lines.push(...createLines(change, style, { ...detail, timezone: options.timezone }));
  const fields = change.action === 'update' || options.verbose ? change.fields ?? [] : [];
  for (const field of fields) {
    const via = viaText(fieldOriginPieces(change, field.field));
    lines.push(...(fieldDiffLines(field, style, { ...detail, via }) ?? [term`${indent}      ${field.field}${via}: ${fieldValue(field.field, field.before, options.timezone)} → ${fieldValue(field.field, field.after, options.timezone)}`]));
  }
  return lines;
}

/** A field's value in a diff line: a time for people on the project's clock, anything else as a short preview. */
export function fieldValue(field: string, value: unknown, timezone: string): Terminal {
  return field === 'scheduledAt' && typeof value === 'string' ? shownTime(value, timezone) : preview(value);
}
