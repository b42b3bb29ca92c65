import type { ApiClient } from '../api/index.js';
import type { CheckMemo } from '../cache/post-cache.js';
import type { Config } from '../config/types.js';
import { readContent, readUnchangedInFull, type ContentResult } from '../content/read-content.js';
import type { ReadContentOptions } from '../content/read-file.js';
import type { DesiredPost, InvalidFile, UnchangedPost } from '../content/types.js';
import type { Diagnostic } from '../diagnostics.js';
import type { ProbeCache } from '../media/probe-cache.js';
import { sortByKey } from '../text/ordering.js';
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
  /** Only content diagnostics: files listed here yield no post. */
  contentDiagnostics: Diagnostic[];
  /** Only the account-rule checks. */
  checkDiagnostics: Diagnostic[];
  /** Files that yield no post because of their errors: the plan blocks their posts. */
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
  /** Keys already applied: their scheduledAt may lie in the past. */
  ownedKeys: Pick<ReadonlySet<string>, 'has'>;
}): Promise<DesiredSide> {
  const { caches } = input;
  const earlier = caches.kept?.posts(input.config);
  const options: ReadContentOptions = {
    config: input.config,
    now: input.now,
    probe: caches.probes.probe,
    mediaCache: caches.media,
    acceptPastSchedule: ({ key }) => input.ownedKeys.has(key),
    ...(earlier === undefined ? {} : { earlier }),
  };
  // Most posts target the accounts postsync.yaml names: their rules are read while the files are.
  const early = prefetchAccountRules(input.client, Object.values(input.config.accounts));
  const content = await readContent(options);
  const rules = await readAccountRules(input.client, accountIdsOf(content), { known: await early });
  return checkDesired({ content: { ...content, readInFull: (posts) => readUnchangedInFull(posts, options) }, rules, probes: caches.probes, ...(earlier === undefined ? {} : { memo: earlier }) });
}

/**
 * Content already read, checked against `rules` (which must hold every account its posts use).
 * Unchanged posts never checked under these rules (the capabilities changed) are read in full
 * and checked; with `memo`, a post checked before under these rules is not checked again.
 */
export async function checkDesired(input: { content: ContentSide; rules: AccountRules; probes: ProbeCache; memo?: CheckMemo }): Promise<DesiredSide> {
  const { content, rules, memo } = input;
  const unchecked = memo === undefined ? [] : uncheckedUnder(rules, content.unchanged, memo);
  const { posts, unchanged } =
    unchecked.length === 0 ? content : { posts: sortByKey([...content.posts, ...(await content.readInFull(unchecked))]), unchanged: without(content.unchanged, unchecked) };
  const checks = await checkDesiredPosts({ posts, unchanged, rules, probes: input.probes, ...(memo === undefined ? {} : { memo }) });
  return { posts, unchanged, readInFull: content.readInFull, diagnostics: [...content.diagnostics, ...checks], contentDiagnostics: content.diagnostics, checkDiagnostics: checks, invalid: content.invalid, rules };
}

/** Every account the posts target, by id. */
export function accountIdsOf(content: Pick<ContentResult, 'posts' | 'unchanged'>): Set<string> {
  const ids = new Set<string>();
  for (const post of content.posts) for (const target of post.shape.targets) ids.add(target.socialAccountId);
  for (const post of content.unchanged) for (const id of post.accountIds) ids.add(id);
  return ids;
}

/** `posts` but those in `leaving` (the very objects). */
export function without(posts: readonly UnchangedPost[], leaving: readonly UnchangedPost[]): UnchangedPost[] {
  const gone = new Set(leaving);
  return posts.filter((post) => !gone.has(post));
}
