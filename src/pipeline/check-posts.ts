import { checkAgainstCapabilities } from '../content/capability-checks.js';
import type { KeptChecks, PostChecks } from '../content/reading-memo.js';
import type { PostToCheck } from '../content/types.js';
import { distinctDiagnostics, type Diagnostic } from '../diagnostics.js';
import { checkMediaAgainstCapabilities, MediaFindings } from '../media/checks.js';
import { probePostMedia, type ProbeCache } from '../media/probe-cache.js';
import { canonicalJson, sha256Hex } from '../state/hash.js';
import type { AccountRules } from './account-rules.js';

/**
 * The checks that need the remote side: every target account exists in the project (those are
 * absent from `rules.capabilities`), and each post satisfies its accounts' caption, option,
 * attachment and media rules. With `kept`, a post whose checks the memo keeps against the same
 * rules is not checked again (nor its media probed): the result is the same, in the same order.
 */
export async function checkDesiredPosts(input: { posts: readonly PostToCheck[]; rules: AccountRules; probes: ProbeCache; kept?: KeptChecks }): Promise<Diagnostic[]> {
  const { posts, rules, kept } = input;
  const digests = kept === undefined ? undefined : rulesDigests(rules);
  const results = new Array<PostChecks | undefined>(posts.length);
  const unchecked: PostToCheck[] = [];
  posts.forEach((post, index) => {
    // A post of a file with errors is never a kept reading's: it is checked every time.
    const found = digests === undefined || post.ofInvalidFile === true ? undefined : kept?.checks(post, digests(post));
    if (found === undefined) unchecked.push(post);
    else results[index] = found;
  });
  const probes = await probePostMedia(unchecked, input.probes.probe);
  const findings = new MediaFindings();
  posts.forEach((post, index) => {
    if (results[index] !== undefined) return;
    // An unavailable account is only a warning: its posts become `blocked` in the plan
    // (docs/concepts.md, "Blocked files and partial apply") instead of stopping the whole run.
    const accounts = checkAgainstCapabilities([post], rules.capabilities, { unavailableAccounts: 'warning' });
    const media = mediaChecksOf(post, checkMediaAgainstCapabilities(post, probes, rules.capabilities, findings));
    results[index] = { accounts, media };
    if (digests !== undefined && post.ofInvalidFile !== true) kept?.keepChecks(post, digests(post), { accounts, media });
  });
  const accounts: Diagnostic[] = [];
  const media: Diagnostic[] = [];
  for (const result of results) {
    // Most posts have no diagnostic: no call per empty list.
    if (result!.accounts.length > 0) accounts.push(...result!.accounts);
    if (result!.media.length > 0) media.push(...result!.media);
  }
  // The occurrences of a repeat share their file's problems: each is shown once.
  return distinctDiagnostics([...accounts, ...media]);
}

/** The media checks of a post; those of a file with errors wait, as its other publishing rules do, until it reads cleanly. */
function mediaChecksOf(post: PostToCheck, diagnostics: Diagnostic[]): Diagnostic[] {
  return post.ofInvalidFile === true ? diagnostics.filter((d) => d.readiness !== true) : diagnostics;
}

/**
 * The digest of what a post's checks read besides the post itself: the capabilities (or the
 * absence) of each account it targets, in target order. Each account's is worked out once.
 */
function rulesDigests(rules: AccountRules): (post: PostToCheck) => string {
  const byAccount = new Map<string, string>();
  const digestOf = (id: string): string => {
    let digest = byAccount.get(id);
    if (digest === undefined) {
      const capabilities = rules.capabilities.get(id);
      digest = capabilities === undefined ? 'none' : sha256Hex(canonicalJson(capabilities)).slice(0, 32);
      byAccount.set(id, digest);
    }
    return digest;
  };
  return (post) => post.shape.targets.map((target) => digestOf(target.socialAccountId)).join(',');
}
