import type { Action, Plan } from '../../src/plan/types.js';
import { location } from './diagnostics.js';
import { summaryLine } from './plan-human.js';
import { bytes, plural } from './format.js';

const EMOJI: Record<Action, string> = { create: '🟢', adopt: '🔗', update: '🟡', unschedule: '⏸️', delete: '🔴', move: '↪️', noop: '⚪', blocked: '⛔' };

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** The plan as GitHub-flavoured Markdown, for a pull-request comment or the job summary. */
export function renderPlanMarkdown(plan: Plan, options: { label: string }): string {
  const out: string[] = ['### postsync plan', '', `${options.label}`, '', `**${summaryLine(plan)}**`, ''];
  const changes = plan.changes.filter((change) => change.action !== 'noop');
  if (changes.length > 0) {
    out.push('| | Action | Post | File | Why |', '|---|---|---|---|---|');
    for (const change of changes) {
      const { action } = change;
      const fields = change.fields?.length ? ` (${change.fields.map((field) => `\`${field.field}\``).join(', ')})` : '';
      const key = change.fromKey ? `${change.fromKey} → ${change.key}` : change.key;
      out.push(`| ${EMOJI[change.action]} | ${action} | \`${cell(key)}\` | ${change.file ? `\`${cell(change.file)}\`` : ''} | ${cell(change.reasons.join('; '))}${fields} |`);
    }
    out.push('');
  }
  if (plan.uploads.length > 0) {
    const total = plan.uploads.reduce((sum, upload) => sum + upload.sizeBytes, 0);
    out.push(`Media: ${plural(plan.uploads.length, 'file')} to upload (${bytes(total)}).`, '');
  }
  if (plan.diagnostics.length > 0) {
    out.push('#### Problems', '');
    for (const d of plan.diagnostics) out.push(`- **${d.severity}** \`${location(d) || 'postsync'}\`: ${cell(d.message)}${d.hint ? ` — ${cell(d.hint)}` : ''}`);
    out.push('');
  }
  return out.join('\n');
}
