import type { ApiClient } from '../api/index.js';
import type { Config } from '../config/types.js';
import { readContent } from '../content/read-content.js';
import type { DesiredPost } from '../content/types.js';
import type { Diagnostic } from '../diagnostics.js';
import type { PlanCaches } from './plan-caches.js';
import { checkDesiredPosts } from './check-posts.js';
import { readAccountRules, type AccountRules } from './remote-snapshot.js';

export interface DesiredSide {
  posts: DesiredPost[];
  /** Content diagnostics, then the account-rule checks. */
  diagnostics: Diagnostic[];
  /** Only content diagnostics: files listed here yield no post. */
  contentDiagnostics: Diagnostic[];
  rules: AccountRules;
}

/**
 * The files, validated and normalized, then checked against the rules of the accounts they
 * target (one capabilities read per account in use).
 */
export async function readDesired(input: {
  config: Config;
  client: ApiClient;
  now: Date;
  caches: PlanCaches;
  /** Keys already applied: their scheduledAt may lie in the past. */
  ownedKeys: ReadonlySet<string>;
}): Promise<DesiredSide> {
  const { caches } = input;
  const readings = caches.kept?.readings(input.config);
  const content = await readContent({
    config: input.config,
    now: input.now,
    probe: caches.probes.probe,
    mediaCache: caches.media,
    acceptPastSchedule: ({ key }) => input.ownedKeys.has(key),
    readings,
  });
  const accountIds = content.posts.flatMap((post) => post.shape.targets.map((target) => target.socialAccountId));
  const rules = await readAccountRules(input.client, accountIds);
  const checks = await checkDesiredPosts({ posts: content.posts, rules, probes: caches.probes, facts: readings });
  return { posts: content.posts, diagnostics: [...content.diagnostics, ...checks], contentDiagnostics: content.diagnostics, rules };
}
