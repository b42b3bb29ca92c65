import type { ApiClient } from '../api/index.js';
import type { Config } from '../config/types.js';
import { sortByKey } from '../text/ordering.js';
import { readContent, readUnchangedInFull } from '../content/read-content.js';
import type { ReadContentOptions } from '../content/read-file.js';
import type { DesiredPost, UnchangedPost } from '../content/types.js';
import type { Diagnostic } from '../diagnostics.js';
import type { PlanCaches } from './plan-caches.js';
import { checkDesiredPosts, uncheckedUnder } from './check-posts.js';
import { prefetchAccountRules, readAccountRules, type AccountRules } from './remote-snapshot.js';

export interface DesiredSide {
  posts: DesiredPost[];
  /** Posts of files unchanged since an earlier run (with `.postsync/cache`), checked already; none is in `posts`. */
  unchanged: UnchangedPost[];
  /** Unchanged posts read in full (the same posts), for a plan that changes them. */
  readInFull(posts: readonly UnchangedPost[]): Promise<DesiredPost[]>;
  /** Content diagnostics, then the account-rule checks. */
  diagnostics: Diagnostic[];
  /** Only content diagnostics: files listed here yield no post. */
  contentDiagnostics: Diagnostic[];
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
  const summaries = caches.kept?.summaries(input.config);
  const options: ReadContentOptions = {
    config: input.config,
    now: input.now,
    probe: caches.probes.probe,
    mediaCache: caches.media,
    acceptPastSchedule: ({ key }) => input.ownedKeys.has(key),
    ...(summaries === undefined ? {} : { summaries }),
  };
  // Most posts target the accounts postsync.yaml names: their rules are read while the files are.
  const early = prefetchAccountRules(input.client, Object.values(input.config.accounts));
  const content = await readContent(options);
  const readInFull = (posts: readonly UnchangedPost[]) => readUnchangedInFull(posts, options);
  const accountIds = new Set<string>();
  for (const post of content.posts) for (const target of post.shape.targets) accountIds.add(target.socialAccountId);
  for (const post of content.unchanged) for (const id of post.accountIds) accountIds.add(id);
  const rules = await readAccountRules(input.client, accountIds, { known: await early });
  // Unchanged posts never checked under these rules (the capabilities changed) are read in full and checked.
  const unchecked = summaries === undefined ? [] : uncheckedUnder(rules, content.unchanged);
  const { posts, unchanged } = unchecked.length === 0 ? content : { posts: sortByKey([...content.posts, ...(await readInFull(unchecked))]), unchanged: without(content.unchanged, unchecked) };
  const checks = await checkDesiredPosts({ posts, unchanged, rules, probes: caches.probes, ...(summaries === undefined ? {} : { facts: summaries }) });
  return { posts, unchanged, readInFull, diagnostics: [...content.diagnostics, ...checks], contentDiagnostics: content.diagnostics, rules };
}

/** `posts` but those in `leaving` (the very objects). */
function without(posts: readonly UnchangedPost[], leaving: readonly UnchangedPost[]): UnchangedPost[] {
  const gone = new Set(leaving);
  return posts.filter((post) => !gone.has(post));
}
