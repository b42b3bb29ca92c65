import type { ApiClient } from '../api/index.js';
import type { Config } from '../config/types.js';
import { readContent, type ContentResult } from '../content/read-content.js';
import type { ReadContentOptions } from '../content/read-file.js';
import type { DesiredPost, InvalidFile, PostToCheck } from '../content/types.js';
import type { Diagnostic } from '../diagnostics.js';
import type { MediaMemo } from '../content/media-memo.js';
import type { MediaProbe } from '../media/probe.js';
import { scheduleRulesOf, needsAccountFacts } from '../house-rules/index.js';
import { decideSchedule } from '../plan/schedule-policy.js';
import type { LivePostsById, PlanInput } from '../plan/types.js';
import type { ProjectState } from '../state/types.js';
import { sortByKey, sortDiagnostics } from '../text/ordering.js';
import { accountFactsLoader, platformsOf } from './account-facts.js';
import { prefetchAccountRules, readAccountRules, type AccountRules } from './account-rules.js';
import { checkDesiredPosts } from './check-posts.js';
import type { PlanCaches } from './plan-caches.js';

type PlannedSide = PlanInput['desired'];

/** The desired side of a plan (`PlanInput.desired`): the posts as the files say, checked against their accounts' rules. */
export interface DesiredSide extends PlannedSide {
  posts: DesiredPost[];
  /** The posts a schedule error holds back (a house rule they break, no free slot): blocked by the plan, still shown by the calendar, sorted by key. */
  held: DesiredPost[];
  /** Content diagnostics, the schedule policies' among them: files listed here with an error yield no post (a schedule error: not the post it is about). */
  contentDiagnostics: Diagnostic[];
  /** The account-rule checks. */
  checkDiagnostics: Diagnostic[];
  /** Files that yield no post because of their errors: the plan blocks their posts. */
  invalid: InvalidFile[];
  /** The posts of files with errors, as far as they can be made: never planned; the drafts among them are not ready to schedule. */
  checkOnly: PostToCheck[];
  rules: AccountRules;
}

/**
 * The files, validated and normalized, then checked against the rules of the accounts they target
 * (one capabilities read per account postsync.yaml names or a post uses).
 */
export async function readDesired(input: {
  config: Config;
  client: ApiClient;
  now: Date;
  caches: PlanCaches;
  /** The state section planned against (its keys may keep a past scheduledAt; its slots are kept), the remote posts when listed, and `--prune`. */
  schedule: Omit<ScheduleContext, 'config' | 'now'>;
}): Promise<DesiredSide> {
  const { caches, config, client } = input;
  // Most posts target the accounts postsync.yaml names: their rules are read while the files are.
  const early = prefetchAccountRules(client, Object.values(config.accounts));
  // The accounts' platforms and handles: read first when a rule needs them for every post, else only if a text asks.
  const loadFacts = accountFactsLoader(client);
  const facts = needsAccountFacts(config.rules) ? await loadFacts() : undefined;
  const memo = caches.memo?.posts(config, facts);
  const owned = input.schedule.state.posts;
  const options: ReadContentOptions = {
    config,
    now: input.now,
    media: caches.media,
    acceptPastSchedule: ({ key }) => owned[key] !== undefined,
    accountFacts: facts ?? loadFacts,
    ...(memo === undefined ? {} : { memo }),
  };
  const content = await readContent(options);
  const rules = await readAccountRules(client, accountIdsOf(content), { known: await early });
  const schedule = { ...input.schedule, config, now: input.now };
  return checkDesired({ content, rules, media: caches.media, schedule });
}

/** What the schedule decisions of a plan need besides the posts (see `decideSchedule`). */
export interface ScheduleContext {
  config: Config;
  state: ProjectState;
  /** The remote posts; a promise while they are being listed (awaited only when rules or slots need them). */
  live?: LivePostsById | Promise<LivePostsById>;
  now: Date;
  prune: boolean;
}

/**
 * Content already read, checked against `rules` (which must hold every account its posts use). With
 * `schedule`, `next-slot` posts get their slots and the schedule rules are checked first
 * (`decideSchedule`): their problems join the content diagnostics, on the posts' files, and a post
 * with an error is left out, as the post of an invalid file is.
 */
export async function checkDesired(input: { content: ContentResult; rules: AccountRules; media: Pick<MediaMemo<MediaProbe>, 'probe'>; schedule?: ScheduleContext }): Promise<DesiredSide> {
  const { content, rules, schedule } = input;
  const decided = schedule === undefined ? { posts: content.posts, diagnostics: [], held: [] } : await scheduleDecisions(content, rules, schedule);
  const { posts } = decided;
  const contentDiagnostics = decided.diagnostics.length === 0 ? content.diagnostics : sortDiagnostics([...content.diagnostics, ...decided.diagnostics]);
  // The posts of files with errors are checked too: every problem of a file shows in one run.
  const checked = content.checkOnly.length === 0 ? posts : sortByKey([...posts, ...content.checkOnly]);
  const checks = await checkDesiredPosts({ posts: checked, rules, media: input.media });
  const heldKeys = new Set(decided.held.map((held) => held.key));
  const held = heldKeys.size === 0 ? [] : content.posts.filter((post) => heldKeys.has(post.key));
  return { posts, held, contentDiagnostics, checkDiagnostics: checks, invalid: content.invalid, checkOnly: content.checkOnly, rules };
}

/** Every diagnostic of a desired side: the content's, then the account-rule checks. */
export function desiredDiagnostics(desired: Pick<DesiredSide, 'contentDiagnostics' | 'checkDiagnostics'>): Diagnostic[] {
  return [...desired.contentDiagnostics, ...desired.checkDiagnostics];
}

async function scheduleDecisions(content: Pick<ContentResult, 'posts' | 'diagnostics'>, rules: AccountRules, schedule: ScheduleContext) {
  const { config } = schedule;
  const needed = scheduleRulesOf(config.rules).length > 0 || content.posts.some((post) => post.slot !== undefined);
  if (!needed) return { posts: content.posts, diagnostics: [], held: [] };
  const live = await schedule.live;
  const brokenFiles = new Set(content.diagnostics.flatMap((d) => (d.severity === 'error' && d.file !== undefined ? [d.file] : [])));
  return decideSchedule({ posts: content.posts, config, state: schedule.state, ...(live === undefined ? {} : { live }), accounts: platformsOf(rules), now: schedule.now, prune: schedule.prune, brokenFiles });
}

/** Every account the posts target, by id, those of files with errors included. */
export function accountIdsOf(content: Pick<ContentResult, 'posts' | 'checkOnly'>): Set<string> {
  const ids = new Set<string>();
  for (const post of [...content.posts, ...content.checkOnly]) for (const target of post.shape.targets) ids.add(target.socialAccountId);
  return ids;
}
