import { summaryCutNote } from '../../src/actions/summary.js';
import { reasonSentences } from '../../src/plan-words/reason-words.js';
import { changeDetailsMarkdown } from '../../src/actions/change-details.js';
import type { PostShape } from '../../src/content/types.js';
import type { Action, FieldChange, Plan } from '../../src/plan/types.js';
import { timeText } from '../../src/zoned-time/index.js';
import { inlineCode, joinMarkdown, markdownMessage, md, withinBytes, withoutFinalLineBreak, type Markdown } from '../../src/text/markdown.js';
import { location } from './diagnostics.js';
import { summaryLine } from './plan-human.js';
import { bytes, plural } from './format.js';
import { fieldOriginPieces, type OriginPiece } from './field-origins.js';

const EMOJI: Record<Action, string> = { create: '🟢', adopt: '🔗', update: '🟡', unschedule: '⏸️', delete: '🔴', move: '↪️', noop: '⚪', blocked: '⛔' };

/**
 * The plan as GitHub-flavoured Markdown, for a pull-request comment or the job summary. With
 * `maxBytes` (the job summary's share of GitHub's limit) it lists the changes and the problems that
 * fit, the problems in at most a quarter of it, and says how many it left out. A changed time is
 * shown on the clock of `timezone`, the project's.
 */
export function renderPlanMarkdown(plan: Plan, options: { label: string; timezone: string; pruneNote?: string | null; maxBytes?: number; fullText?: boolean; aliases?: ReadonlyMap<string, string> }): Markdown {
  const aliases = options.aliases ?? new Map<string, string>();
  const maxBytes = options.maxBytes ?? Infinity;
  const head: Markdown[] = [md`### postsync plan`, md``, md`${options.label}`, md``, ...(options.pruneNote ? [md`${options.pruneNote}`, md``] : []), md`**${markdownMessage(summaryLine(plan))}**`, md``];
  const changes = plan.changes.filter((change) => change.action !== 'noop');
  const rows = changes.map((change) => {
    const { action } = change;
    const fields = change.fields?.length ? md` (${joinMarkdown(change.fields.map((field) => md`${fieldText(field, options.timezone)}${markdownVia(fieldOriginPieces(change, field.field))}`), ', ')})` : change.action === 'create' ? md` (${createText(change.desired, options.timezone, aliases)})` : md``;
    const key = change.fromKey ? `${change.fromKey} → ${change.key}` : change.key;
    return md`| ${EMOJI[change.action]} | ${action} | ${inlineCode(key, { table: true })} | ${change.file ? inlineCode(change.file, { table: true }) : md``} | ${markdownMessage(reasonSentences(change, { accounts: aliases }).join('; '))}${fields} |\n`;
  });
  if (changes.length > 0) head.push(md`| | Action | Post | File | Why |`, md`|---|---|---|---|---|`);
  const tail: Markdown[] = changes.length > 0 ? [md``] : [];
  if (plan.uploads.length > 0) {
    const total = plan.uploads.reduce((sum, upload) => sum + upload.sizeBytes, 0);
    tail.push(md`Media: ${plural(plan.uploads.length, 'file')} to upload (${bytes(total)}).`, md``);
  }
  let problems = md``;
  if (plan.diagnostics.length > 0) {
    const lines = plan.diagnostics.map((d) => md`- **${d.severity}** ${inlineCode(location(d) || 'postsync')}: ${markdownMessage(d.message)}${d.hint ? md` — ${markdownMessage(d.hint)}` : md``}\n`);
    problems = withinBytes({ head: md`#### Problems\n\n`, parts: lines, tail: md`\n`, maxBytes: maxBytes / 4, cutNote: (left) => summaryCutNote(left, 'problem') });
  }
  const details = changes.map((change) => changeDetailsMarkdown(change, { full: options.fullText === true, aliases })).filter((block): block is Markdown => block !== null);
  const detailed = details.length === 0 ? md`` : withinBytes({ head: md`#### What changes\n\n`, parts: details, tail: md`\n`, maxBytes: maxBytes / 4, cutNote: (left) => summaryCutNote(left, 'change') });
  const after = md`${tail.map((line) => md`${line}\n`)}${detailed}${problems}`;
  // Every line ends with a line break, the last one's but one: as the lines joined with `\n`.
  const all = withinBytes({ head: md`${head.map((line) => md`${line}\n`)}`, parts: rows, tail: after, maxBytes, cutNote: (left) => summaryCutNote(left, 'change') });
  return withoutFinalLineBreak(all);
}

/** ` (via a, b)` as `viaText` says it, each name a code span; empty without origins. */
function markdownVia(origins: readonly OriginPiece[][]): Markdown {
  if (origins.length === 0) return md``;
  const piece = (part: OriginPiece): Markdown => (part.name ? inlineCode(part.text, { table: true }) : markdownMessage(part.text));
  return md` (via ${joinMarkdown(origins.map((pieces) => joinMarkdown(pieces.map(piece), '')), ', ')})`;
}

/** A create in the table: its time on the project's clock (or none, a draft) and its accounts. */
function createText(desired: PostShape, timezone: string, aliases: ReadonlyMap<string, string>): Markdown {
  const when = desired.scheduledAt === null ? 'no time (a draft)' : timeText(desired.scheduledAt, timezone);
  const accounts = desired.targets.map((target) => aliases.get(target.socialAccountId) ?? target.socialAccountId).join(', ') || 'no account';
  return markdownMessage(`${when} · ${accounts}`);
}

/** A changed field in the table: its name, and for the time the move on the project's clock. */
function fieldText(field: FieldChange, timezone: string): Markdown {
  const name = inlineCode(field.field, { table: true });
  if (field.field !== 'scheduledAt') return name;
  const time = (value: unknown) => (typeof value === 'string' ? timeText(value, timezone) : 'none (draft)');
  return md`${name} ${markdownMessage(`${time(field.before)} → ${time(field.after)}`)}`;
}
