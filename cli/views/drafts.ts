import type { DraftReadiness } from '../../src/pipeline/draft-readiness.js';
import { plural } from './format.js';
import type { Style } from './style.js';
import { joinTerminal, padTerminal, term, terminalPath, terminalWidth, type Terminal } from '../../src/text/terminal.js';

/** `ready to schedule`, or `not ready to schedule: what is missing; what else`. */
export function readinessText(draft: Pick<DraftReadiness, 'ready' | 'missing'>, style: Style): Terminal {
  return draft.ready ? style.green(term`ready to schedule`) : term`${style.yellow(term`not ready to schedule:`)} ${draft.missing.join('; ')}`;
}

/** One line per draft: its file and whether it is ready to schedule, or what is missing. */
export function draftLines(drafts: readonly DraftReadiness[], style: Style): Terminal[] {
  const files = drafts.map((draft) => terminalPath(draft.file));
  const width = Math.max(...files.map(terminalWidth));
  return drafts.map((draft, index) => term`  ${style.bold(padTerminal(files[index]!, width))}  ${readinessText(draft, style)}`);
}

/**
 * `Drafts (2, 1 not ready to schedule):` and a line per draft; nothing without drafts. With
 * `limit` (a screen that is drawn again after every save), at most that many lines, the drafts
 * not ready to schedule first, and how many more there are.
 */
export function renderDrafts(drafts: readonly DraftReadiness[], style: Style, options: { limit?: number } = {}): Terminal {
  if (drafts.length === 0) return term``;
  const notReady = drafts.filter((draft) => !draft.ready);
  const head = term`Drafts (${drafts.length}${notReady.length > 0 ? `, ${notReady.length} not ready to schedule` : ', all ready to schedule'}):`;
  const limit = options.limit ?? Infinity;
  if (drafts.length <= limit) return joinTerminal([head, ...draftLines(drafts, style)], '\n');
  const shown = [...notReady, ...drafts.filter((draft) => draft.ready)].slice(0, limit);
  const more = term`  … and ${plural(drafts.length - shown.length, 'more draft')} (${style.bold(term`postsync validate`)} lists them all)`;
  return joinTerminal([head, ...draftLines(shown, style), style.dim(more)], '\n');
}

/** ` 1 draft not ready to schedule yet.`, or nothing. */
export function notReadyNote(count: number): string {
  return count > 0 ? ` ${plural(count, 'draft')} not ready to schedule yet.` : '';
}
