import { checkAgainstCapabilities } from '../content/capability-checks.js';
import type { PostToCheck } from '../content/types.js';
import { distinctDiagnostics, type Diagnostic } from '../diagnostics.js';
import { checkMediaAgainstCapabilities, MediaFindings } from '../media/checks.js';
import type { MediaMemo } from '../content/media-memo.js';
import { probePostMedia } from '../media/media-memo.js';
import type { MediaProbe } from '../media/probe.js';
import type { AccountRules } from './account-rules.js';

/**
 * The checks that need the remote side: every target account exists in the project (those are
 * absent from `rules.capabilities`), and each post satisfies its accounts' caption, option,
 * attachment and media rules.
 */
export async function checkDesiredPosts(input: { posts: readonly PostToCheck[]; rules: AccountRules; media: Pick<MediaMemo<MediaProbe>, 'probe'> }): Promise<Diagnostic[]> {
  const { posts, rules } = input;
  const probes = await probePostMedia(posts, input.media.probe);
  // An unavailable account is only a warning: its posts become `blocked` in the plan
  // (docs/concepts.md, "Blocked files and partial apply") instead of stopping the whole run.
  const accounts = checkAgainstCapabilities(posts, rules.capabilities, { unavailableAccounts: 'warning' });
  const media: Diagnostic[] = [];
  const findings = new MediaFindings();
  for (const post of posts) {
    // Most posts have no diagnostic: no call per empty list.
    const mediaFound = mediaChecksOf(post, checkMediaAgainstCapabilities(post, probes, rules.capabilities, findings));
    if (mediaFound.length > 0) media.push(...mediaFound);
  }
  // The occurrences of a repeat share their file's problems: each is shown once.
  return distinctDiagnostics([...accounts, ...media]);
}

/** The media checks of a post; those of a file with errors wait, as its other publishing rules do, until it reads cleanly. */
function mediaChecksOf(post: PostToCheck, diagnostics: Diagnostic[]): Diagnostic[] {
  return post.ofInvalidFile === true ? diagnostics.filter((d) => d.readiness !== true) : diagnostics;
}
