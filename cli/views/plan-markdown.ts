import { summaryCutNote } from '../../src/actions/summary.js';
import type { Action, Plan } from '../../src/plan/types.js';
import { inlineCode, markdownMessage, withinBytes } from '../../src/text/markdown.js';
import { location } from './diagnostics.js';
import { summaryLine } from './plan-human.js';
import { bytes, plural } from './format.js';

const EMOJI: Record<Action, string> = { create: '🟢', adopt: '🔗', update: '🟡', unschedule: '⏸️', delete: '🔴', move: '↪️', noop: '⚪', blocked: '⛔' };

/**
 * The plan as GitHub-flavoured Markdown, for a pull-request comment or the job summary. With
 * `maxBytes` (the job summary's share of GitHub's limit) it lists the changes and the problems that
 * fit, the problems in at most a quarter of it, and says how many it left out.
 */
export function renderPlanMarkdown(plan: Plan, options: { label: string; pruneNote?: string | null; maxBytes?: number }): string {
  const maxBytes = options.maxBytes ?? Infinity;
  const head: string[] = ['### postsync plan', '', `${options.label}`, '', ...(options.pruneNote ? [options.pruneNote, ''] : []), `**${summaryLine(plan)}**`, ''];
  const changes = plan.changes.filter((change) => change.action !== 'noop');
  const rows = changes.map((change) => {
    const { action } = change;
    const fields = change.fields?.length ? ` (${change.fields.map((field) => inlineCode(field.field, { table: true })).join(', ')})` : '';
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
  const after = `${tail.map((line) => `${line}\n`).join('')}${problems}`;
  // Every line ends with a line break, the last one's but one: as the lines joined with `\n`.
  return withinBytes({ head: head.map((line) => `${line}\n`).join(''), parts: rows, tail: after, maxBytes, cutNote: (left) => summaryCutNote(left, 'change') }).replace(/\n$/, '');
}
