import { checkAgainstCapabilities } from '../content/capability-checks.js';
import type { DesiredPost } from '../content/types.js';
import type { Diagnostic } from '../diagnostics.js';
import { checkMediaAgainstCapabilities } from '../media/checks.js';
import { probePostMedia, type ProbeCache } from '../media/probe-cache.js';
import type { AccountRules } from './remote-snapshot.js';

/**
 * The checks that need the remote side: every target account exists in the project (those are
 * absent from `rules.capabilities`), and each post satisfies its accounts' caption, option,
 * attachment and media rules.
 */
export async function checkDesiredPosts(input: { posts: readonly DesiredPost[]; rules: AccountRules; probes: ProbeCache }): Promise<Diagnostic[]> {
  const { posts, rules } = input;
  // An unavailable account is only a warning: its posts become `blocked` in the plan (DESIGN.md)
  // instead of stopping the whole run.
  const diagnostics: Diagnostic[] = [...checkAgainstCapabilities(posts, rules.capabilities, { unavailableAccounts: 'warning' })];
  const probes = await probePostMedia(posts, input.probes.probe);
  for (const post of posts) diagnostics.push(...checkMediaAgainstCapabilities(post, probes, rules.capabilities));
  return diagnostics;
}
