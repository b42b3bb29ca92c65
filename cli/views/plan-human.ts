import { removedKeptAsDrafts } from '../../src/plan/removed-changes.js';
import { notReadyDraftFiles } from '../../src/diagnostics.js';
import { blockedByErrors, heldByRules } from '../../src/plan/posts-with-errors.js';
import { unconfirmedBlocked } from '../../src/plan/unconfirmed-records.js';
import type { Plan } from '../../src/plan/types.js';
import { groupOccurrences } from './change-groups.js';
import { changeLines } from './change-lines.js';
import { renderDiagnostics } from './diagnostics.js';
import { notReadyNote } from './drafts.js';
import { bytes, plural } from './format.js';
import type { Style } from './style.js';
import { joinTerminal, term, terminalPath, type Terminal } from '../../src/text/terminal.js';

/**
 * One line per change with +, ~, -, →; the summary line last. `noop` lines only when verbose.
 * `pruneNote` (pruneHeader) goes under the label.
 */
export function renderPlan(plan: Plan, options: { label: string; pruneNote?: string | null; style: Style; timezone: string; verbose?: boolean; fullText?: boolean; aliases?: ReadonlyMap<string, string> }): Terminal {
  const { style } = options;
  const verbose = options.verbose ?? false;
  const shownAs = { timezone: options.timezone, verbose, fullText: options.fullText ?? false, ...(options.aliases === undefined ? {} : { aliases: options.aliases }) };
  const blank = term``;
  const out: Terminal[] = [term`${options.label}`, ...(options.pruneNote ? [term`${options.pruneNote}`] : [])];
  if (plan.diagnostics.length > 0) out.push(blank, renderDiagnostics(plan.diagnostics, style));
  const shown = plan.changes.filter((change) => verbose || change.action !== 'noop');
  if (shown.length > 0) {
    out.push(blank);
    for (const item of groupOccurrences(shown)) {
      if ('change' in item) out.push(...changeLines(item.change, style, shownAs));
      else {
        out.push(term`  ${style.bold(terminalPath(item.file))} ${style.dim(term`(repeat: ${plural(item.changes.length, 'change')})`)}`);
        for (const change of item.changes) out.push(...changeLines(change, style, { ...shownAs, underFile: true }));
      }
    }
  }
  if (plan.uploads.length > 0) {
    const total = plan.uploads.reduce((sum, upload) => sum + upload.sizeBytes, 0);
    out.push(blank, term`Media: ${plural(plan.uploads.length, 'file')} to upload (${bytes(total)}).`);
  }
  out.push(blank, term`${summaryLine(plan)}`);
  return joinTerminal(out, '\n');
}

export function summaryLine(plan: Plan): string {
  const { summary } = plan;
  const errors = plan.diagnostics.filter((d) => d.severity === 'error').length;
  const drafts = notReadyNote(notReadyDraftFiles(plan.diagnostics).length);
  const note = keptDraftsNote(plan) + keptPublishedNote(plan) + notVisibleNote(plan);
  if (summary.create + summary.adopt + summary.update + summary.unschedule + summary.delete + summary.move === 0 && summary.blocked === 0) {
    // An error outside the selected posts (--target): "matches" would be a false statement.
    if (errors > 0) return `No changes planned, but ${plural(errors, 'error')} above must be fixed first.${note}${drafts}`;
    return `No changes. The remote matches your files.${note}${drafts}`;
  }
  const parts = [`Plan: ${summary.create} to create, ${summary.update} to update, ${summary.delete} to delete`];
  if (summary.unschedule > 0) parts.push(`, ${summary.unschedule} to unschedule`);
  if (summary.adopt > 0) parts.push(`, ${summary.adopt} to adopt`);
  if (summary.move > 0) parts.push(`, ${summary.move} to move`);
  let line = `${parts.join('')}.`;
  if (summary.blocked > 0) line += ` ${summary.blocked} blocked${blockedNote(plan)}.`;
  return `${line}${note}${drafts}`;
}

/** Published posts whose files are gone (noops a plain plan does not list): they stay as published, and the line says so. */
function keptPublishedNote(plan: Plan): string {
  const kept = plan.changes.filter((change) => change.reason === 'published-kept').length;
  return kept === 0 ? '' : ` ${plural(kept, "published post's file", "published posts' files")} removed: ${kept === 1 ? 'its post stays' : 'their posts stay'} as published.`;
}

/** Posts written moments ago that the remote does not show yet (a read that lags a write): nothing is done about them. */
function notVisibleNote(plan: Plan): string {
  const lagging = plan.changes.filter((change) => change.reason === 'not-visible-yet').length;
  return lagging === 0 ? '' : ` ${plural(lagging, 'post')} written moments ago ${lagging === 1 ? 'is' : 'are'} not visible on the remote yet (its reads lag its writes): nothing to do.`;
}

/** Owned drafts whose files are gone (noops that name no file of theirs): they stay until --prune. */
function keptDraftsNote(plan: Plan): string {
  const kept = removedKeptAsDrafts(plan);
  return kept === 0 ? '' : ` ${plural(kept, "removed file's post", "removed files' posts")} ${kept === 1 ? 'stays a draft' : 'stay drafts'} on the remote (\`apply --prune\` deletes ${kept === 1 ? 'it' : 'them'}).`;
}

/**
 * ` (invalid files)`, ` (2 by invalid files)`, ` (1 by unconfirmed state records)`: how many of the
 * blocked changes are so because a file has errors, or because their state record has no valid seal.
 */
function blockedNote(plan: Plan): string {
  const held = heldByRules(plan);
  // Each cause alone (`(held by a rule)`) and among others (`2 held by a rule`).
  const causes = (
    [
      [blockedByErrors(plan).length - held, 'invalid files', 'by invalid files'],
      [held, 'held by a rule', 'held by a rule'],
      [unconfirmedBlocked(plan), 'unconfirmed state records', 'by unconfirmed state records'],
    ] as const
  ).filter(([count]) => count > 0);
  if (causes.length === 0) return '';
  if (causes.length === 1 && causes[0]![0] === plan.summary.blocked) return ` (${causes[0]![1]})`;
  return ` (${causes.map(([count, , among]) => `${count} ${among}`).join(', ')})`;
}
