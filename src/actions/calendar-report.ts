import { relative, sep } from 'node:path';
import type { CalendarModel } from '../calendar/model.js';
import { readRunEvent, type RunEvent } from '../github/run-event.js';
import { htmlComment, inlineCode, markdownLink, md, type Markdown } from '../text/markdown.js';
import { changedPosts, renderCalendarDiff, type PictureSource } from './calendar-diff.js';
import { COMMENT_LIMIT, LIMIT_MARGIN, STEP_SUMMARY_LIMIT } from './limits.js';
import { gitHubActionsEnvironment } from './environment.js';
import { appendSummary } from './outputs.js';
import { pullRequestTarget, upsertStickyComment, type CommentOutcome } from './pull-request-comment.js';
import type { ActionsSink } from './report.js';
import { annotation } from './workflow-commands.js';

/** Finds postsync's comment among a pull request's comments (the calendar at the repository root). */
export const COMMENT_MARKER = htmlComment('postsync-calendar');

/**
 * The marker of the comment of the calendar in `folder` (relative to the repository root, '' for
 * the root): a repository with several calendars keeps one comment per calendar on a pull request.
 */
export function commentMarker(folder: string): Markdown {
  return folder === '' ? COMMENT_MARKER : htmlComment(`postsync-calendar ${encodeURIComponent(folder).replace(/-/g, '%2D')}`);
}

/**
 * `postsync calendar` inside GitHub Actions: the calendar diff goes to the job summary and, when
 * `POSTSYNC_COMMENT=true` (the action's `comment: true`), into one comment on the pull request,
 * edited in place on every push; no comment is made while the plan changes no post. A comment
 * that cannot be written (a fork's read-only token) is a warning: the summary has it all.
 * Returns what happened to the comment, or null outside Actions or without `comment`.
 */
export async function reportCalendarToGitHubActions(model: CalendarModel, sink: ActionsSink & { note: (line: string) => void; projectRoot: string }): Promise<CommentOutcome | null> {
  const actions = gitHubActionsEnvironment(sink.env, { fallbackWorkspace: sink.projectRoot });
  if (actions === null) return null;
  const folder = relative(actions.workspace, sink.projectRoot).split(sep).join('/');
  const title = folder === '' ? md`postsync calendar` : md`postsync calendar · ${inlineCode(folder)}`;
  const run = runLink(sink.env);
  const event = await readRunEvent(sink.env);
  const pictures = pictureSource(sink.env, { folder, event });
  const shown = pictures === null ? {} : { pictures };
  await appendSummary(actions, md`${renderCalendarDiff(model, { maxBytes: STEP_SUMMARY_LIMIT - LIMIT_MARGIN, title, ...shown })}\n`);
  if (sink.env.POSTSYNC_COMMENT !== 'true') return null;
  const target = pullRequestTarget(sink.env, event);
  if ('missing' in target) {
    sink.annotate(annotation('warning', `No pull-request comment: ${target.missing} is missing.`, { title: 'postsync calendar' }));
    return null;
  }
  const footer = run === null ? undefined : md`The whole calendar, with a preview of each post, is among the artifacts of ${markdownLink(md`this run`, run)}.`;
  const body = changedPosts(model).length === 0 ? null : renderCalendarDiff(model, { maxBytes: COMMENT_LIMIT - LIMIT_MARGIN, title, ...shown, ...(footer === undefined ? {} : { footer }) });
  try {
    const outcome = await upsertStickyComment(target, { marker: commentMarker(folder), body, nothingBody: md`### ${title}\n\nNo posts change on the calendar any more.\n` });
    sink.note(`Pull-request comment: ${outcome === 'none' ? 'none (no post changes)' : outcome}.`);
    return outcome;
  } catch (error) {
    sink.annotate(annotation('warning', `Could not write the pull-request comment: ${(error as Error).message}. A pull request from a fork gets a read-only token; the job summary has the calendar diff.`, { title: 'postsync calendar' }));
    return null;
  }
}

/** The run's page, where its artifacts are. */
function runLink(env: ActionsSink['env']): string | null {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: run } = env;
  return server && repository && run ? `${server}/${repository}/actions/runs/${run}` : null;
}

/**
 * Where the pictures under review are: the pull request's head commit (the event payload names
 * it; a fork's commit is reachable through this repository too), or the run's commit on a push.
 * Null when the runner does not say, or says something that is not a commit: then no thumbnails.
 */
function pictureSource(env: ActionsSink['env'], { folder, event }: { folder: string; event: RunEvent | null }): PictureSource | null {
  const repository = env.GITHUB_REPOSITORY;
  if (!repository || !/^[\w.-]+\/[\w.-]+$/.test(repository)) return null;
  const head = event?.pull_request?.head?.sha;
  const commit = typeof head === 'string' ? head : env.GITHUB_SHA;
  if (commit === undefined || !/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(commit)) return null;
  const server = env.GITHUB_SERVER_URL || 'https://github.com';
  if (!/^https?:\/\/[^\s/"'<>]+$/.test(server.replace(/\/+$/, ''))) return null;
  return { server, repository, commit, folder };
}

