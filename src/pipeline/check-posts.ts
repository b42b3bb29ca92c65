import { hash } from 'node:crypto';
import type { CheckMemo, PostChecks } from '../cache/post-cache.js';
import { checkAgainstCapabilities } from '../content/capability-checks.js';
import type { PostToCheck, UnchangedPost } from '../content/types.js';
import { distinctDiagnostics, type Diagnostic } from '../diagnostics.js';
import { checkMediaAgainstCapabilities, MediaFindings } from '../media/checks.js';
import { probePostMedia, type ProbeCache } from '../media/probe-cache.js';
import { canonicalJson } from '../state/hash.js';
import { compareText } from '../text/ordering.js';
import type { AccountRules } from './account-rules.js';

/**
 * The checks that need the remote side: every target account exists in the project (those are
 * absent from `rules.capabilities`), and each post satisfies its accounts' caption, option,
 * attachment and media rules. With `memo`, a post whose results under these rules are kept (by
 * its file and fingerprint) is not checked again; `unchanged` posts must all have such results
 * (`uncheckedUnder` names the others, to be read in full first).
 */
export async function checkDesiredPosts(input: {
  posts: readonly PostToCheck[];
  unchanged?: readonly UnchangedPost[];
  rules: AccountRules;
  probes: ProbeCache;
  memo?: CheckMemo;
}): Promise<Diagnostic[]> {
  const { posts, rules, memo } = input;
  const rulesDigest = memo === undefined ? '' : rulesDigestOf(rules);
  const known = (post: PostToCheck | UnchangedPost): PostChecks | undefined => {
    const checks = memo?.checksOf(post.file, post.fingerprint);
    return checks?.rules === rulesDigest ? checks : undefined;
  };
  const probes = await probePostMedia(
    posts.filter((post) => known(post) === undefined),
    input.probes.probe,
  );
  const accounts: Diagnostic[] = [];
  const media: Diagnostic[] = [];
  const findings = new MediaFindings();
  // Unchanged posts join in key order (the order of `posts`), so the diagnostics come in the same order however each post was read.
  const unchanged = input.unchanged ?? [];
  const all = unchanged.length === 0 ? posts : posts.length === 0 ? unchanged : [...posts, ...unchanged].sort((a, b) => compareText(a.key, b.key));
  for (const post of all) {
    let found = known(post);
    if (found === undefined) {
      if (!('shape' in post)) throw new Error(`${post.file} has no check results under these rules: read it in full first`);
      found = {
        rules: rulesDigest,
        // An unavailable account is only a warning: its posts become `blocked` in the plan
        // (docs/concepts.md, "Blocked files and partial apply") instead of stopping the whole run.
        accounts: checkAgainstCapabilities([post], rules.capabilities, { unavailableAccounts: 'warning' }),
        media: mediaChecksOf(post, checkMediaAgainstCapabilities(post, probes, rules.capabilities, findings)),
      };
      memo?.keepChecks(post.file, post.fingerprint, found);
    }
    // Most posts have no diagnostic: no call per empty list.
    if (found.accounts.length > 0) accounts.push(...found.accounts);
    if (found.media.length > 0) media.push(...found.media);
  }
  // The occurrences of a repeat share their file's problems: each is shown once.
  return distinctDiagnostics([...accounts, ...media]);
}

/** The media checks of a post; those of a file with errors wait, as its other publishing rules do, until it reads cleanly. */
function mediaChecksOf(post: PostToCheck, diagnostics: Diagnostic[]): Diagnostic[] {
  return post.ofInvalidFile === true ? diagnostics.filter((d) => d.readiness !== true) : diagnostics;
}

/** The unchanged posts that have no check results under `rules` in `memo`. */
export function uncheckedUnder(rules: AccountRules, unchanged: readonly UnchangedPost[], memo: CheckMemo): UnchangedPost[] {
  const digest = rulesDigestOf(rules);
  return unchanged.filter((post) => memo.checksOf(post.file, post.fingerprint)?.rules !== digest);
}

/** Names the account rules of one run: equal digests, equal check results for the same post. Kept with every post, so short. */
function rulesDigestOf(rules: AccountRules): string {
  const capabilities = [...rules.capabilities].sort(([a], [b]) => compareText(a, b));
  return hash('sha1', canonicalJson({ capabilities, unknown: [...rules.unknownAccounts].sort() }), 'base64');
}
