import type { DraftReadiness } from '../../src/pipeline/draft-readiness.js';
import { plural } from './format.js';
import type { Style } from './style.js';

/** `ready to schedule`, or `not ready to schedule: what is missing; what else`. */
export function readinessText(draft: Pick<DraftReadiness, 'ready' | 'missing'>, style: Style): string {
  return draft.ready ? style.green('ready to schedule') : `${style.yellow('not ready to schedule:')} ${draft.missing.join('; ')}`;
}

/** One line per draft: its file and whether it is ready to schedule, or what is missing. */
export function draftLines(drafts: readonly DraftReadiness[], style: Style): string[] {
  const width = Math.max(...drafts.map((draft) => draft.file.length));
  return drafts.map((draft) => `  ${style.bold(draft.file.padEnd(width))}  ${readinessText(draft, style)}`);
}

/** `Drafts (2, 1 not ready to schedule):` and a line per draft; nothing without drafts. */
export function renderDrafts(drafts: readonly DraftReadiness[], style: Style): string {
  if (drafts.length === 0) return '';
  const notReady = drafts.filter((draft) => !draft.ready).length;
  const head = `Drafts (${drafts.length}${notReady > 0 ? `, ${notReady} not ready to schedule` : ', all ready to schedule'}):`;
  return [head, ...draftLines(drafts, style)].join('\n');
}

/** ` 1 draft not ready to schedule yet.`, or nothing. */
export function notReadyNote(count: number): string {
  return count > 0 ? ` ${plural(count, 'draft')} not ready to schedule yet.` : '';
}
