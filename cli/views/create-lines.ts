import type { ChangeWith } from '../../src/plan/types.js';
import { term, type Terminal } from '../../src/text/terminal.js';
import { preview, shownTime } from './format.js';
import type { Style } from './style.js';

/** How long a create's text preview is, unless the whole text is asked for. */
const CREATE_PREVIEW = 72;

/**
 * What a create makes: its time on the project's clock (or none: a draft), its accounts (by alias
 * where postsync.yaml has one), how many media files, and its text: a preview, or with `full` the
 * whole text line by line.
 */
export function createLines(change: ChangeWith<'create'>, style: Style, options: { full: boolean; indent: string; timezone: string; aliases: ReadonlyMap<string, string> }): Terminal[] {
  const { desired } = change;
  // No line starts with `at`: a reader (and a tool) would take it for a stack trace.
  const when = desired.scheduledAt === null ? term`a draft, no time` : term`${style.dim(term`scheduled`)} ${shownTime(desired.scheduledAt, options.timezone)}`;
  const accounts = desired.targets.map((target) => options.aliases.get(target.socialAccountId) ?? target.socialAccountId).join(', ') || 'no account';
  const media = desired.media.length === 0 ? '' : ` · media: ${desired.media.length} file${desired.media.length === 1 ? '' : 's'}`;
  const lines = [term`${options.indent}${when} · ${style.dim(term`on`)} ${accounts}${media}`];
  if (!options.full) return [...lines, term`${options.indent}${style.dim(term`text`)} ${preview(desired.content, CREATE_PREVIEW)}`];
  return [...lines, term`${options.indent}${style.dim(term`text (whole):`)}`, ...desired.content.split('\n').map((line) => term`${options.indent}  ${line}`)];
}
