import type { CalendarModel } from '../../src/calendar/model.js';
import { plural } from '../../src/media/format.js';
import { joinTerminal, term, type Terminal } from '../../src/text/terminal.js';

/** What `postsync calendar` prints: where the page (and feed) went, and what they hold. */
export function calendarLines(model: CalendarModel, written: { page: string; feed: string | null }): Terminal {
  const scheduled = model.posts.filter((post) => post.slot !== null).length;
  const lines = [term`Calendar: ${written.page} (${plural(scheduled, 'scheduled post')}, ${plural(model.posts.length - scheduled, 'unscheduled post')}; times in ${model.timezone})`];
  const summary = model.summary;
  if (summary === null) lines.push(term`The API was not reached${model.offlineReason === undefined ? '' : ` (${model.offlineReason})`}: statuses come from the state file, and the plan is not shown.`);
  else {
    const parts = (['new', 'moved', 'changed', 'renamed', 'unscheduled', 'deleted', 'blocked'] as const).filter((name) => summary[name] > 0).map((name) => `${summary[name]} ${name}`);
    lines.push(parts.length === 0 ? term`Plan: no changes.` : term`Plan: ${parts.join(', ')}.`);
  }
  const problems = model.posts.reduce((sum, post) => sum + post.diagnostics.length, model.problems.length);
  if (problems > 0) lines.push(term`${plural(problems, 'problem')} in the files: shown on the page (\`postsync validate\` lists them).`);
  if (written.feed !== null) lines.push(term`Feed: ${written.feed} (${plural(model.posts.filter((post) => post.slot !== null && post.overlay !== 'deleted').length, 'event')})`);
  return term`${joinTerminal(lines, '\n')}\n`;
}
