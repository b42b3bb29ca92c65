import type { CalendarModel } from '../../src/calendar/model.js';
import { plural } from '../../src/media/format.js';

/** What `postsync calendar` prints: where the page (and feed) went, and what they hold. */
export function calendarLines(model: CalendarModel, written: { page: string; feed: string | null }): string {
  const scheduled = model.posts.filter((post) => post.slot !== null).length;
  const lines = [`Calendar: ${written.page} (${plural(scheduled, 'scheduled post')}, ${plural(model.posts.length - scheduled, 'unscheduled post')}; times in ${model.timezone})`];
  const summary = model.summary;
  if (summary === null) lines.push(`The API was not reached${model.offlineReason === undefined ? '' : ` (${model.offlineReason})`}: statuses come from the state file, and the plan is not shown.`);
  else {
    const parts = (['new', 'moved', 'changed', 'renamed', 'unscheduled', 'deleted', 'blocked'] as const).filter((name) => summary[name] > 0).map((name) => `${summary[name]} ${name}`);
    lines.push(parts.length === 0 ? 'Plan: no changes.' : `Plan: ${parts.join(', ')}.`);
  }
  const problems = model.posts.reduce((sum, post) => sum + post.diagnostics.length, model.problems.length);
  if (problems > 0) lines.push(`${plural(problems, 'problem')} in the files: shown on the page (\`postsync validate\` lists them).`);
  if (written.feed !== null) lines.push(`Feed: ${written.feed} (${plural(model.posts.filter((post) => post.slot !== null && post.overlay !== 'deleted').length, 'event')})`);
  return `${lines.join('\n')}\n`;
}
