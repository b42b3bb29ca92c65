import { checkAgainstCapabilities } from '../content/capability-checks.js';
import type { DesiredPost } from '../content/types.js';
import type { Diagnostic } from '../diagnostics.js';
import { checkMediaAgainstCapabilities } from '../media/checks.js';
import { probePostMedia, type ProbeCache } from '../media/probe-cache.js';
import type { AccountRules } from './remote-snapshot.js';

/**
 * The checks that need the remote side: every target account exists in the project, and each
 * post satisfies its accounts' caption, option, attachment and media rules.
 */
export async function checkDesiredPosts(input: { posts: readonly DesiredPost[]; rules: AccountRules; probes: ProbeCache }): Promise<Diagnostic[]> {
  const { posts, rules } = input;
  const diagnostics: Diagnostic[] = [...unknownAccountDiagnostics(posts, rules.unknownAccounts)];
  // An unavailable account makes its posts `blocked` in the plan (DESIGN.md), not a run-stopping error.
  diagnostics.push(...checkAgainstCapabilities(posts, rules.capabilities, { unavailableAccounts: 'warning' }));
  const probes = await probePostMedia(posts, input.probes.probe);
  for (const post of posts) diagnostics.push(...checkMediaAgainstCapabilities(post, probes, rules.capabilities));
  return diagnostics;
}

function unknownAccountDiagnostics(posts: readonly DesiredPost[], unknown: ReadonlySet<string>): Diagnostic[] {
  if (unknown.size === 0) return [];
  const diagnostics: Diagnostic[] = [];
  for (const post of posts) {
    post.shape.targets.forEach((target, index) => {
      if (!unknown.has(target.socialAccountId)) return;
      const position = post.locations?.targets[index];
      diagnostics.push({
        severity: 'error',
        code: 'account-not-found',
        message: `the account ${post.targetLabels[index] ?? target.socialAccountId} (${target.socialAccountId}) is not connected to this project`,
        file: post.file,
        ...(position ? { line: position.line, column: position.column } : {}),
        hint: 'Run `postsync accounts` to list the accounts of the project, and fix the alias in postsync.yaml or the uuid in the post.',
      });
    });
  }
  return diagnostics;
}
