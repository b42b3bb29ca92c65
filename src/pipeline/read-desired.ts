import type { ApiClient } from '../api/index.js';
import type { CheckMemo } from '../cache/post-cache.js';
import type { Config } from '../config/types.js';
import { readContent, readUnchangedInFull, type ContentResult } from '../content/read-content.js';
import type { ReadContentOptions } from '../content/read-file.js';
import type { DesiredPost, InvalidFile, UnchangedPost } from '../content/types.js';
import type { Diagnostic } from '../diagnostics.js';
import type { ProbeCache } from '../media/probe-cache.js';
import { scheduleRulesOf, needsAccountFacts } from '../house-rules/index.js';
import { decideSchedule } from '../plan/schedule-policy.js';
import type { LivePostsById } from '../plan/types.js';
import type { TargetState } from '../state/types.js';
import { compareText, sortByKey, sortDiagnostics } from '../text/ordering.js';
import { accountFactsLoader, platformsOf } from './account-facts.js';
import { prefetchAccountRules, readAccountRules, type AccountRules } from './account-rules.js';
import { checkDesiredPosts, uncheckedUnder } from './check-posts.js';
import type { PlanCaches } from './plan-caches.js';

/** The files as read: every post, and a way to read in full those given as unchanged. */
export interface ContentSide extends ContentResult {
  /** Unchanged posts read in full (the same posts), for a plan that changes them. */
  readInFull(posts: readonly UnchangedPost[]): Promise<DesiredPost[]>;
}

/** The desired side of a plan: the posts as the files say, checked against their accounts' rules. */
export interface DesiredSide {
  posts: DesiredPost[];
  /** Posts of files unchanged since an earlier run (with `.postsync/cache`), checked already; none is in `posts`. */
  unchanged: UnchangedPost[];
  readInFull: ContentSide['readInFull'];
  /** Content diagnostics, then the account-rule checks. */
  diagnostics: Diagnostic[];
  /** Only content diagnostics, the schedule policies' among them: files listed here with an error yield no post (a schedule error: not the post it is about). */
  contentDiagnostics: Diagnostic[];
  /** Only the account-rule checks. */
  checkDiagnostics: Diagnostic[];
  /** Files that yield no post because of their errors, and posts a schedule error holds back: the plan blocks their posts. */
  invalid: InvalidFile[];
  rules: AccountRules;
}

/**
 * The files, validated and normalized, then checked against the rules of the accounts they target
 * (one capabilities read per account postsync.yaml names or a post uses). With `.postsync/cache`,
 * files unchanged since an earlier run come as UnchangedPosts, checked from that run's results.
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
  const earlier = caches.kept?.posts(config, facts);
  const owned = input.schedule.state.posts;
  const options: ReadContentOptions = {
    config,
    now: input.now,
    probe: caches.probes.probe,
    mediaCache: caches.media,
    acceptPastSchedule: ({ key }) => owned[key] !== undefined,
    accountFacts: facts ?? loadFacts,
    ...(earlier === undefined ? {} : { earlier }),
  };
  const content = await readContent(options);
  const rules = await readAccountRules(client, accountIdsOf(content), { known: await early });
  const schedule = { ...input.schedule, config, now: input.now };
  return checkDesired({ content: { ...content, readInFull: (posts) => readUnchangedInFull(posts, options) }, rules, probes: caches.probes, schedule, ...(earlier === undefined ? {} : { memo: earlier }) });
}

/** What the schedule decisions of a plan need besides the posts (see `decideSchedule`). */
export interface ScheduleContext {
  config: Config;
  state: TargetState;
  /** The remote posts; a promise while they are being listed (awaited only when rules or slots need them). */
  live?: LivePostsById | Promise<LivePostsById>;
  now: Date;
  prune: boolean;
}

/**
 * Content already read, checked against `rules` (which must hold every account its posts use).
 * Unchanged posts never checked under these rules (the capabilities changed) are read in full
 * and checked; with `memo`, a post checked before under these rules is not checked again. With
 * `schedule`, `next-slot` posts get their slots and the schedule rules are checked first
 * (`decideSchedule`): their problems join the content diagnostics, on the posts' files, and a post
 * with an error is left out, as the post of an invalid file is.
 */
export async function checkDesired(input: { content: ContentSide; rules: AccountRules; probes: ProbeCache; memo?: CheckMemo; schedule?: ScheduleContext }): Promise<DesiredSide> {
  const { content, rules, memo, schedule } = input;
  const unchecked = memo === undefined || content.unchanged.length === 0 ? [] : uncheckedUnder(rules, content.unchanged, memo);
  const read =
    unchecked.length === 0 ? content : { posts: sortByKey([...content.posts, ...(await content.readInFull(unchecked))]), unchanged: without(content.unchanged, unchecked) };
  const decided = schedule === undefined ? { ...read, diagnostics: [], held: [] } : await scheduleDecisions(read, content.diagnostics, rules, schedule);
  const { posts, unchanged } = decided;
  const contentDiagnostics = decided.diagnostics.length === 0 ? content.diagnostics : sortDiagnostics([...content.diagnostics, ...decided.diagnostics]);
  // The posts of files with errors are checked too: every problem of a file shows in one run.
  const checked = content.checkOnly.length === 0 ? posts : sortByKey([...posts, ...content.checkOnly]);
  const checks = await checkDesiredPosts({ posts: checked, unchanged, rules, probes: input.probes, ...(memo === undefined ? {} : { memo }) });
  const invalid = decided.held.length === 0 ? content.invalid : [...content.invalid, ...decided.held].sort((a, b) => compareText(a.file, b.file) || compareText(a.key, b.key));
  return { posts, unchanged, readInFull: content.readInFull, diagnostics: [...contentDiagnostics, ...checks], contentDiagnostics, checkDiagnostics: checks, invalid, rules };
}

async function scheduleDecisions(read: Pick<ContentResult, 'posts' | 'unchanged'>, diagnostics: readonly Diagnostic[], rules: AccountRules, schedule: ScheduleContext) {
  const { config } = schedule;
  const needed = scheduleRulesOf(config.rules).length > 0 || read.posts.some((post) => post.slot !== undefined);
  if (!needed) return { ...read, diagnostics: [], held: [] };
  const live = await schedule.live;
  const brokenFiles = new Set(diagnostics.flatMap((d) => (d.severity === 'error' && d.file !== undefined ? [d.file] : [])));
  return decideSchedule({ ...read, config, state: schedule.state, ...(live === undefined ? {} : { live }), accounts: platformsOf(rules), now: schedule.now, prune: schedule.prune, brokenFiles });
}

/** Every account the posts target, by id, those of files with errors included. */
export function accountIdsOf(content: Pick<ContentResult, 'posts' | 'unchanged' | 'checkOnly'>): Set<string> {
  const ids = new Set<string>();
  for (const post of [...content.posts, ...content.checkOnly]) for (const target of post.shape.targets) ids.add(target.socialAccountId);
  for (const post of content.unchanged) for (const id of post.accountIds) ids.add(id);
  return ids;
}

/** `posts` but those in `leaving` (the very objects). */
export function without(posts: readonly UnchangedPost[], leaving: readonly UnchangedPost[]): UnchangedPost[] {
  const gone = new Set(leaving);
  return posts.filter((post) => !gone.has(post));
}
