import type { Post, Target } from '../../src/api/types.js';
import type { PostProblem } from '../../src/health/post-problems.js';
import { compareText } from '../../src/text/ordering.js';
import type { RemoteProject } from '../../src/plan/types.js';
import { sectionFor } from '../../src/state/state-file.js';
import type { StateFile } from '../../src/state/types.js';
import type { DraftReadiness } from '../../src/pipeline/draft-readiness.js';
import { readinessText } from './drafts.js';
import type { Style } from './style.js';
import { renderTable } from './table.js';
import { joinTerminal, term, terminalPath, type Terminal } from '../../src/text/terminal.js';
import { shownTime } from './format.js';

export interface TargetStatusView {
  socialAccountId: string;
  /** From postsync.yaml, or null. */
  alias: string | null;
  platform: string;
  handle: string;
  status: string;
  externalPostId: string | null;
  error: string | null;
  waitReason: string | null;
  nextAttemptAt: string | null;
  publishedAt: string | null;
}

export interface PostStatusView {
  key: string;
  file: string;
  postId: string;
  /**
   * `gone`: the post in state no longer exists on the remote. `recorded`: an apply saw it in a
   * final status (published) and it is not read again (`status --refresh-all` reads it): `status`
   * is the recorded one and nothing else is known.
   */
  remote: 'present' | 'gone' | 'recorded';
  status: string | null;
  scheduledAt: string | null;
  publishedAt: string | null;
  targets: TargetStatusView[];
  /** `status --problems` only: what is wrong with it. */
  problems?: PostProblem[];
  /**
   * A draft on the remote whose file is a valid draft too: whether the file is ready to schedule,
   * or what is missing. Null for every other post.
   */
  readiness: { ready: boolean; missing: string[] } | null;
}

export interface StatusReport {
  formatVersion: 1;
  command: 'status';
  target: RemoteProject;
  posts: PostStatusView[];
  pending: { key: string; file: string; startedAt: string }[];
  uploads: { sha256: string; mediaId: string; partCount: number; startedAt: string }[];
  /** Other remotes the state file has posts for (e.g. the local API while this is a real one). */
  otherTargets: { id: string; posts: number }[];
  /** True for `status --problems`: `posts` holds only the posts with problems, `pending` and `uploads` are empty. */
  problemsOnly?: boolean;
}

function targetView(target: Target, aliasFor: (id: string) => string | undefined): TargetStatusView {
  return {
    socialAccountId: target.socialAccountId,
    alias: aliasFor(target.socialAccountId) ?? null,
    platform: target.platform,
    handle: target.handle,
    status: target.status,
    externalPostId: target.externalPostId ?? null,
    error: target.error ?? null,
    waitReason: target.waitReason ?? null,
    nextAttemptAt: target.nextAttemptAt ?? null,
    publishedAt: target.publishedAt ?? null,
  };
}

/** Account id → its first alias in postsync.yaml. */
function aliasLookup(aliases: Readonly<Record<string, string>>): (id: string) => string | undefined {
  const aliasById = new Map<string, string>();
  for (const [alias, id] of Object.entries(aliases)) if (!aliasById.has(id)) aliasById.set(id, alias);
  return (id) => aliasById.get(id.toLowerCase());
}

/** How problems name an account: `account photo` (its alias), else `account <id>`. */
export function accountLabel(aliases: Readonly<Record<string, string>>): (id: string) => string {
  const aliasFor = aliasLookup(aliases);
  return (id) => `account ${aliasFor(id) ?? id}`;
}

/**
 * Joins the state section with one listing of the remote posts (by post id), sorted by file.
 * Given `problems` (by key, `status --problems`), only the posts that have some are shown.
 */
export function statusReport(input: { target: RemoteProject; state: StateFile; live: readonly Post[]; drafts?: readonly DraftReadiness[]; aliases: Readonly<Record<string, string>>; problems?: ReadonlyMap<string, PostProblem[]>; unread?: ReadonlySet<string> }): StatusReport {
  const section = sectionFor(input.state, input.target);
  const byId = new Map(input.live.map((post) => [post.id, post]));
  const aliasFor = aliasLookup(input.aliases);
  const draftsByFile = new Map((input.drafts ?? []).map((draft) => [draft.file, draft]));
  const readinessOf = (file: string, live: Post | undefined): PostStatusView['readiness'] => {
    const draft = live?.status === 'draft' ? draftsByFile.get(file) : undefined;
    return draft === undefined ? null : { ready: draft.ready, missing: draft.missing };
  };
  const { problems } = input;
  const shown = Object.entries(section.posts).filter(([key]) => problems === undefined || problems.has(key));
  const posts = shown.map(([key, record]): PostStatusView => {
    const live = byId.get(record.postId);
    const recorded = live === undefined && input.unread?.has(record.postId) === true;
    return {
      key,
      file: record.file,
      postId: record.postId,
      remote: live ? 'present' : recorded ? 'recorded' : 'gone',
      status: live?.status ?? (recorded ? record.final! : null),
      scheduledAt: live?.scheduledAt ?? null,
      publishedAt: live?.publishedAt ?? null,
      targets: live ? live.targets.map((target) => targetView(target, aliasFor)) : [],
      readiness: readinessOf(record.file, live),
      ...(problems === undefined ? {} : { problems: problems.get(key) ?? [] }),
    };
  });
  posts.sort((a, b) => compareText(a.file, b.file) || compareText(a.key, b.key));
  return {
    formatVersion: 1,
    command: 'status',
    target: input.target,
    posts,
    pending: problems !== undefined ? [] : Object.entries(section.pending).map(([key, pending]) => ({ key, file: pending.file, startedAt: pending.startedAt })).sort((a, b) => compareText(a.key, b.key)),
    uploads: problems !== undefined ? [] : Object.entries(section.uploads).map(([sha256, upload]) => ({ sha256, mediaId: upload.mediaId, partCount: upload.partCount, startedAt: upload.startedAt })).sort((a, b) => compareText(a.sha256, b.sha256)),
    otherTargets: Object.entries(input.state.targets)
      .filter(([id, other]) => id !== input.target.id && Object.keys(other.posts).length > 0)
      .map(([id, other]) => ({ id, posts: Object.keys(other.posts).length }))
      .sort((a, b) => compareText(a.id, b.id)),
    ...(problems === undefined ? {} : { problemsOnly: true }),
  };
}

function colourStatus(status: string, style: Style): Terminal {
  const shown = term`${status}`;
  if (status === 'published') return style.green(shown);
  if (status === 'failed' || status === 'partially_published') return style.red(shown);
  if (status === 'waiting' || status === 'publishing') return style.yellow(shown);
  return shown;
}

function details(target: TargetStatusView, options: { style: Style; timezone: string }): Terminal {
  if (target.error) return options.style.red(term`${target.error}`);
  if (target.waitReason || target.nextAttemptAt) {
    const next = target.nextAttemptAt ? term`next attempt ${shownTime(target.nextAttemptAt, options.timezone)}` : null;
    return joinTerminal([target.waitReason ? term`${target.waitReason}` : null, next].filter((part) => part !== null), '; ');
  }
  if (target.publishedAt) return term`published ${shownTime(target.publishedAt, options.timezone)}`;
  return term``;
}

function postLines(post: PostStatusView, options: { style: Style; timezone: string }): Terminal[] {
  const { style } = options;
  const head = term`${style.bold(terminalPath(post.file))}  ${style.dim(term`key ${post.key}, post ${post.postId}`)}`;
  if (post.remote === 'gone') {
    if (post.problems !== undefined) return [head, term`  ${style.red(term`drifted:`)} deleted on the remote since the last apply; \`postsync plan\` shows what happens next`];
    return [head, term`  ${style.red(term`gone`)}: the post no longer exists on the remote (deleted outside postsync?); \`postsync plan\` shows what happens next`];
  }
  const status = post.status ?? 'unknown';
  const facts = [colourStatus(status, style)];
  if (post.scheduledAt) facts.push(term`${status === 'scheduled' ? 'for' : 'scheduled for'} ${shownTime(post.scheduledAt, options.timezone)}`);
  if (post.publishedAt) facts.push(term`published ${shownTime(post.publishedAt, options.timezone)}`);
  if (post.readiness !== null) facts.push(readinessText(post.readiness, style));
  if (post.remote === 'recorded') return [head, term`  ${joinTerminal(facts, ' · ')} ${style.dim(term`(as the last apply saw it; --refresh-all reads it again)`)}`];
  const lines = [head, term`  ${joinTerminal(facts, ' · ')}`];
  for (const problem of post.problems ?? []) lines.push(term`  ${style.red(term`${problem.kind}:`)} ${problem.message}`);
  if (post.targets.length === 0) return [...lines, style.dim(term`  no targets`)];
  const rows = post.targets.map((target) => [term`${target.alias ?? target.handle}`, term`${target.platform}`, colourStatus(target.status, style), term`${target.externalPostId ?? ''}`, details(target, options)]);
  lines.push(renderTable([{ header: 'ACCOUNT' }, { header: 'PLATFORM' }, { header: 'STATUS' }, { header: 'EXTERNAL ID' }, { header: 'DETAILS' }], rows, { style, indent: '  ' }));
  return lines;
}

function summaryLine(report: StatusReport): Terminal {
  if (report.problemsOnly === true) {
    return report.posts.length === 0 ? term`No problems: no managed post is drifted, failed, partly published or blocked.` : term`${report.posts.length} managed post${report.posts.length === 1 ? '' : 's'} with problems.`;
  }
  if (report.posts.length === 0) return term`No managed posts in the state for this target yet.`;
  const counts = new Map<string, number>();
  for (const post of report.posts) {
    const label = post.remote === 'gone' ? 'gone' : (post.status ?? 'unknown');
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const parts = [...counts].sort(([a], [b]) => compareText(a, b)).map(([label, count]) => term`${count} ${label}`);
  return term`${report.posts.length} managed post${report.posts.length === 1 ? '' : 's'}: ${joinTerminal(parts, ', ')}.`;
}

export function renderStatus(report: StatusReport, options: { label: string; style: Style; timezone: string }): Terminal {
  const { style } = options;
  const blank = term``;
  const out = [term`${options.label}`];
  for (const post of report.posts) out.push(blank, ...postLines(post, options));
  if (report.pending.length > 0) {
    out.push(blank, style.yellow(term`Interrupted creates (the next \`postsync apply\` finishes them without duplicates):`));
    for (const pending of report.pending) out.push(term`  ${pending.key}  ${style.dim(term`${terminalPath(pending.file)}, started ${shownTime(pending.startedAt, options.timezone)}`)}`);
  }
  if (report.uploads.length > 0) {
    out.push(blank, style.yellow(term`Unfinished media uploads (the next \`postsync apply\` resumes them):`));
    for (const upload of report.uploads) out.push(term`  sha256 ${upload.sha256.slice(0, 12)}…  ${style.dim(term`media ${upload.mediaId}, ${upload.partCount} parts, started ${shownTime(upload.startedAt, options.timezone)}`)}`);
  }
  out.push(blank, summaryLine(report));
  if (report.otherTargets.length > 0) {
    const others = report.otherTargets.map((other) => `${other.id} (${other.posts})`).join(', ');
    out.push(style.dim(term`The state also has posts for other targets: ${others}; pass --api-url, or --local for the embedded API, to see those.`));
  }
  return joinTerminal(out, '\n');
}
