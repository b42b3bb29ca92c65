import { removedKeptAsDrafts } from '../../src/plan/removed-changes.js';
import type { Plan } from '../../src/plan/types.js';
import type { FileChange, PlanTrigger } from '../../src/watch/events.js';
import type { PlanDelta } from '../../src/watch/plan-delta.js';
import { location, renderDiagnostics } from './diagnostics.js';
import { ACTION_SYMBOLS, changeLines } from './change-lines.js';
import { bytes, plural } from './format.js';
import type { Style } from './style.js';
import { joinTerminal, term, terminalLines, terminalPath, type Terminal } from '../../src/text/terminal.js';
/** Files named in one line before "and N more". */
const MAX_FILES_NAMED = 3;

/** `12:03:04`, local time: the moment a screen refers to. */
export function clockTime(at: Date): string {
  return at.toTimeString().slice(0, 8);
}

/** `1 to create, 2 to update`, `no changes`; removed files' drafts and errors counted at the end. */
export function compactSummary(plan: Plan): string {
  const { summary } = plan;
  const parts: string[] = [];
  if (summary.create > 0) parts.push(`${summary.create} to create`);
  if (summary.update > 0) parts.push(`${summary.update} to update`);
  if (summary.unschedule > 0) parts.push(`${summary.unschedule} to unschedule`);
  if (summary.delete > 0) parts.push(`${summary.delete} to delete`);
  if (summary.move > 0) parts.push(`${summary.move} to move`);
  if (summary.blocked > 0) parts.push(`${summary.blocked} blocked`);
  if (parts.length === 0) parts.push('no changes');
  const kept = removedKeptAsDrafts(plan);
  if (kept > 0) parts.push(`${kept} kept as draft (file removed)`);
  const errors = plan.diagnostics.filter((d) => d.severity === 'error').length;
  if (errors > 0) parts.push(plural(errors, 'error'));
  return parts.join(', ');
}

/** One file deleted and another added in one burst: a rename (`posts/a.md renamed to posts/b.md`). */
function renameText(files: readonly FileChange[]): Terminal | null {
  const deleted = files.find((change) => change.kind === 'deleted');
  const added = files.find((change) => change.kind === 'added');
  return files.length === 2 && deleted && added ? term`${terminalPath(deleted.file)} renamed to ${terminalPath(added.file)}` : null;
}

function describeFile(change: FileChange): Terminal {
  switch (change.kind) {
    case 'folder-added':
      return term`${terminalPath(`${change.file}/`)} created`;
    case 'folder-deleted':
      return term`${terminalPath(`${change.file}/`)} deleted`;
    default:
      return term`${terminalPath(change.file)} ${change.kind}`;
  }
}

/** What set off a re-plan: `posts/a.md saved`, `remote data re-read`, ... */
export function describeTrigger(trigger: PlanTrigger): Terminal {
  const parts: Terminal[] = [];
  const renamed = renameText(trigger.files);
  if (renamed !== null) parts.push(renamed);
  else {
    const named = trigger.files.slice(0, MAX_FILES_NAMED).map(describeFile);
    if (named.length > 0) parts.push(term`${joinTerminal(named, ', ')}${trigger.files.length > MAX_FILES_NAMED ? ` and ${trigger.files.length - MAX_FILES_NAMED} more` : ''}`);
  }
  if (trigger.refreshed === 'manual') parts.push(term`remote data re-read`);
  if (trigger.refreshed === 'interval') parts.push(term`remote data re-read (interval)`);
  if (trigger.stateChanged) parts.push(term`state file changed by another run`);
  if (trigger.draftsApplied) parts.push(term`after applying drafts`);
  return parts.length > 0 ? joinTerminal(parts, ', ') : term`re-planned`;
}

/**
 * The block printed after a re-plan: one headline (`12:03:04 posts/a.md saved → 1 to create
 * (was no changes)`), then only what differs from the previous screen: changes new or
 * different, changes with nothing left to do, problems shown or gone.
 */
export function renderDelta(event: { at: Date; trigger: PlanTrigger; plan: Plan; previous: Plan; delta: PlanDelta }, style: Style, options: { timezone: string }): Terminal {
  const now = compactSummary(event.plan);
  const before = compactSummary(event.previous);
  const lines = [term`${style.bold(term`${clockTime(event.at)}`)} ${describeTrigger(event.trigger)} → ${now}${now === before ? '' : style.dim(term` (was ${before})`)}`];
  const { delta } = event;
  for (const change of delta.changes) lines.push(...changeLines(change, style, options));
  const brokenFiles = new Set(event.plan.diagnostics.filter((d) => d.severity === 'error').map((d) => d.file));
  for (const change of delta.dropped) {
    const was = style.dim(term`(was ${ACTION_SYMBOLS[change.action]} ${change.action})`);
    if (change.file !== null && brokenFiles.has(change.file)) lines.push(term`  ${style.yellow(term`…`)} ${change.key}: on hold until ${terminalPath(change.file)} is fixed ${was}`);
    else lines.push(term`  ${style.green(term`✓`)} ${change.key}: nothing to do any more ${was}`);
  }
  if (delta.uploadsChanged) lines.push(term`  ${uploadsLine(event.plan)}`);
  if (delta.diagnostics.length > 0) lines.push(indent(renderDiagnostics(delta.diagnostics, style)));
  for (const fixed of delta.fixed) {
    const where = location({ ...fixed, line: undefined, column: undefined });
    lines.push(term`  ${style.green(term`✓ fixed:`)} ${where ? `${where} ` : ''}${fixed.message} ${style.dim(term`[${fixed.code}]`)}`);
  }
  return joinTerminal(lines, '\n');
}

function uploadsLine(plan: Plan): Terminal {
  if (plan.uploads.length === 0) return term`Media: nothing to upload.`;
  const total = plan.uploads.reduce((sum, upload) => sum + upload.sizeBytes, 0);
  const paths = plan.uploads.length <= MAX_FILES_NAMED ? term`: ${joinTerminal(plan.uploads.map((upload) => terminalPath(upload.path)), ', ')}` : term``;
  return term`Media: ${plural(plan.uploads.length, 'file')} to upload (${bytes(total)})${paths}.`;
}

function indent(text: Terminal): Terminal {
  return joinTerminal(terminalLines(text).map((line) => term`  ${line}`), '\n');
}
