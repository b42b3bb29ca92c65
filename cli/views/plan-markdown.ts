import { summaryCutNote } from '../../src/actions/summary.js';
import { changeDetailsMarkdown } from '../../src/actions/change-details.js';
import type { PostShape } from '../../src/content/types.js';
import type { Action, FieldChange, Plan } from '../../src/plan/types.js';
import { timeText } from '../../src/zoned-time/index.js';
import { inlineCode, markdownMessage, withinBytes } from '../../src/text/markdown.js';
import { location } from './diagnostics.js';
import { summaryLine } from './plan-human.js';
import { bytes, plural } from './format.js';

const EMOJI: Record<Action, string> = { create: '🟢', adopt: '🔗', update: '🟡', unschedule: '⏸️', delete: '🔴', move: '↪️', noop: '⚪', blocked: '⛔' };

/**
 * The plan as GitHub-flavoured Markdown, for a pull-request comment or the job summary. With
 * `maxBytes` (the job summary's share of GitHub's limit) it lists the changes and the problems that
 * fit, the problems in at most a quarter of it, and says how many it left out. A changed time is
 * shown on the clock of `timezone`, the project's.
 */
export function renderPlanMarkdown(plan: Plan, options: { label: string; timezone: string; pruneNote?: string | null; maxBytes?: number; fullText?: boolean; aliases?: ReadonlyMap<string, string> }): string {
  const aliases = options.aliases ?? new Map<string, string>();
  const maxBytes = options.maxBytes ?? Infinity;
  const head: string[] = ['### postsync plan', '', `${options.label}`, '', ...(options.pruneNote ? [options.pruneNote, ''] : []), `**${summaryLine(plan)}**`, ''];
  const changes = plan.changes.filter((change) => change.action !== 'noop');
  const rows = changes.map((change) => {
    const { action } = change;
    const fields = change.fields?.length ? ` (${change.fields.map((field) => fieldText(field, options.timezone)).join(', ')})` : change.action === 'create' ? ` (${createText(change.desired, options.timezone, aliases)})` : '';
    const key = change.fromKey ? `${change.fromKey} → ${change.key}` : change.key;
    return `| ${EMOJI[change.action]} | ${action} | ${inlineCode(key, { table: true })} | ${change.file ? inlineCode(change.file, { table: true }) : ''} | ${markdownMessage(change.reasons.join('; '))}${fields} |\n`;
  });
  if (changes.length > 0) head.push('| | Action | Post | File | Why |', '|---|---|---|---|---|');
  const tail: string[] = changes.length > 0 ? [''] : [];
  if (plan.uploads.length > 0) {
    const total = plan.uploads.reduce((sum, upload) => sum + upload.sizeBytes, 0);
    tail.push(`Media: ${plural(plan.uploads.length, 'file')} to upload (${bytes(total)}).`, '');
  }
  let problems = '';
  if (plan.diagnostics.length > 0) {
    const lines = plan.diagnostics.map((d) => `- **${d.severity}** ${inlineCode(location(d) || 'postsync')}: ${markdownMessage(d.message)}${d.hint ? ` — ${markdownMessage(d.hint)}` : ''}\n`);
    problems = withinBytes({ head: '#### Problems\n\n', parts: lines, tail: '\n', maxBytes: maxBytes / 4, cutNote: (left) => summaryCutNote(left, 'problem') });
  }
  const details = changes.map((change) => changeDetailsMarkdown(change, { full: options.fullText === true, aliases })).filter((block): block is string => block !== null);
  const detailed = details.length === 0 ? '' : withinBytes({ head: '#### What changes\n\n', parts: details, tail: '\n', maxBytes: maxBytes / 4, cutNote: (left) => summaryCutNote(left, 'change') });
  const after = `${tail.map((line) => `${line}\n`).join('')}${detailed}${problems}`;
  // Every line ends with a line break, the last one's but one: as the lines joined with `\n`.
  return withinBytes({ head: head.map((line) => `${line}\n`).join(''), parts: rows, tail: after, maxBytes, cutNote: (left) => summaryCutNote(left, 'change') }).replace(/\n$/, '');
}

/** A create in the table: its time on the project's clock (or none, a draft) and its accounts. */
function createText(desired: PostShape, timezone: string, aliases: ReadonlyMap<string, string>): string {
  const when = desired.scheduledAt === null ? 'no time (a draft)' : timeText(desired.scheduledAt, timezone);
  const accounts = desired.targets.map((target) => aliases.get(target.socialAccountId) ?? target.socialAccountId).join(', ') || 'no account';
  return markdownMessage(`${when} · ${accounts}`);
}

/** A changed field in the table: its name, and for the time the move on the project's clock. */
function fieldText(field: FieldChange, timezone: string): string {
  const name = inlineCode(field.field, { table: true });
  if (field.field !== 'scheduledAt') return name;
  const time = (value: unknown) => (typeof value === 'string' ? timeText(value, timezone) : 'none (draft)');
  return `${name} ${markdownMessage(`${time(field.before)} → ${time(field.after)}`)}`;
}
