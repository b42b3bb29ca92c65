import type { PostFactStore } from '../content/read-file.js';
import { checkAgainstCapabilities } from '../content/capability-checks.js';
import type { DesiredPost } from '../content/types.js';
import type { Diagnostic } from '../diagnostics.js';
import { checkMediaAgainstCapabilities } from '../media/checks.js';
import { probePostMedia, type ProbeCache } from '../media/probe-cache.js';
import { hash } from 'node:crypto';
import { canonicalJson } from '../state/hash.js';
import type { AccountRules } from './remote-snapshot.js';

/**
 * The checks that need the remote side: every target account exists in the project (those are
 * absent from `rules.capabilities`), and each post satisfies its accounts' caption, option,
 * attachment and media rules. With `facts`, a post whose fingerprint and rules are the ones of an
 * earlier run takes that run's diagnostics instead of being checked again.
 */
export async function checkDesiredPosts(input: { posts: readonly DesiredPost[]; rules: AccountRules; probes: ProbeCache; facts?: PostFactStore }): Promise<Diagnostic[]> {
  const { posts, rules, facts } = input;
  const rulesDigest = facts === undefined ? '' : digestOf(rules);
  const known = (post: DesiredPost) => (post.fingerprint === undefined ? undefined : facts?.facts(post.file, post.fingerprint)?.checks);
  const unchecked = posts.filter((post) => known(post)?.rules !== rulesDigest);
  const probes = await probePostMedia(unchecked, input.probes.probe);
  const accounts: Diagnostic[] = [];
  const media: Diagnostic[] = [];
  for (const post of posts) {
    const kept = known(post);
    const found =
      kept?.rules === rulesDigest
        ? kept
        : {
            rules: rulesDigest,
            // An unavailable account is only a warning: its posts become `blocked` in the plan
            // (DESIGN.md) instead of stopping the whole run.
            accounts: checkAgainstCapabilities([post], rules.capabilities, { unavailableAccounts: 'warning' }),
            media: checkMediaAgainstCapabilities(post, probes, rules.capabilities),
          };
    if (found !== kept && post.fingerprint !== undefined) facts?.addFacts(post.file, post.fingerprint, { checks: found });
    accounts.push(...found.accounts);
    media.push(...found.media);
  }
  return [...accounts, ...media];
}

/** Names the account rules of one run: equal digests, equal check results for the same post. Kept with every post, so short. */
function digestOf(rules: AccountRules): string {
  const capabilities = [...rules.capabilities].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return hash('sha1', canonicalJson({ capabilities, unknown: [...rules.unknownAccounts].sort() }), 'base64');
}
