import { formatCivilDate, formatClock, formatDuration, timeText, weekStart } from '../zoned-time/index.js';
import type { BookEntry, ScheduleConflict } from './schedule-book.js';
import type { Clash, RulePost, RuleViolation } from './rule-input.js';
import { ruleCode } from './rule-scope.js';

/** How a message names another post: its key, or the id of a post without a file. */
function nameOf(entry: BookEntry): string {
  return entry.postId !== undefined && entry.key === entry.postId ? `post ${entry.postId} (no file)` : `\`${entry.key}\``;
}

function clashOf(entry: BookEntry): Clash {
  return { ...(entry.postId === entry.key ? {} : { key: entry.key }), ...(entry.postId === undefined ? {} : { postId: entry.postId }), ...(entry.file === undefined ? {} : { file: entry.file }), scheduledAt: new Date(entry.instantMs).toISOString() };
}

/**
 * The violation a schedule conflict of `post` is reported as, with its message and hint.
 * `label` names an account as the post writes it.
 */
export function scheduleViolation(post: RulePost, conflict: ScheduleConflict, context: { timezone: string; label: (accountId: string) => string }): RuleViolation {
  const { rule, wall } = conflict;
  const accounts = conflict.accountIds.map(context.label).join(', ');
  const base = { severity: rule.severity, code: ruleCode(rule), rule: rule.name, key: post.key, file: post.file, ...post.scheduleAt, found: timeText(post.scheduledAt!, context.timezone) };
  const prefix = `rule \`${rule.name}\`: `;
  switch (rule.kind) {
    case 'quietHours':
      return {
        ...base,
        message: `${prefix}${formatClock(wall.minute)} is in the quiet hours ${formatClock(rule.from)}–${formatClock(rule.to)} (${accounts})`,
        expected: `a time from ${formatClock(rule.to)} to ${formatClock(rule.from)}`,
        hint: `Move it to ${formatClock(rule.to)} or later (before ${formatClock(rule.from)}), or write \`scheduledAt: next-slot\`.`,
      };
    case 'blackout': {
      const period = conflict.period!;
      return {
        ...base,
        message: `${prefix}${formatCivilDate(wall.date)} is in the blackout ${period.label}${period.reason === undefined ? '' : ` (${period.reason})`}`,
        expected: `a time outside ${period.label}`,
        hint: `Move it out of ${period.label}.`,
      };
    }
    case 'minGap': {
      const at = Date.parse(post.scheduledAt!);
      const nearest = conflict.clashes.reduce((a, b) => (Math.abs(b.instantMs - at) < Math.abs(a.instantMs - at) ? b : a));
      const apart = Math.round(Math.abs(nearest.instantMs - at) / 60_000);
      return {
        ...base,
        accountId: conflict.accountIds[0],
        message: `${prefix}${apart === 0 ? 'at the same time as' : `${formatDuration(apart)} from`} ${nameOf(nearest)} on ${accounts}; posts on one account must be at least ${formatDuration(rule.minutes)} apart`,
        expected: `at least ${formatDuration(rule.minutes)} from every other post on ${accounts}`,
        hint: `Move one of them, or write \`scheduledAt: next-slot\` to take the next free slot.`,
        clashesWith: conflict.clashes.map(clashOf),
      };
    }
    case 'maxPerDay':
    case 'maxPerWeek': {
      const perDay = rule.kind === 'maxPerDay';
      const when = perDay ? `on ${formatCivilDate(wall.date)}` : `in the week of ${formatCivilDate(weekStart(wall.date))}`;
      return {
        ...base,
        accountId: conflict.accountIds[0],
        message: `${prefix}${ordinal(conflict.clashes.length + 1)} post on ${accounts} ${when}; at most ${rule.limit} a ${perDay ? 'day' : 'week'}`,
        expected: `at most ${rule.limit} post${rule.limit === 1 ? '' : 's'} a ${perDay ? 'day' : 'week'} on ${accounts}`,
        hint: `Move it to another ${perDay ? 'day' : 'week'}; already there: ${conflict.clashes.map(nameOf).join(', ')}.`,
        clashesWith: conflict.clashes.map(clashOf),
      };
    }
  }
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `the ${n}${suffix}`;
}
