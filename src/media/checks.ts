import type { Capabilities } from '../api/types.js';
import type { DesiredPost } from '../content/types.js';
import { readinessOf, type Diagnostic } from '../diagnostics.js';
import { formatList, plural } from './format.js';
import { checkImage, checkVideo, type Finding, type ProbedMedia, type TargetRules } from './media-rules.js';

export type { ProbedMedia } from './media-rules.js';

/**
 * Checks every media file of `post` against the rules of every target account: content type,
 * size, video duration and codecs, and the attachment rules `maxVideos`, `allowMixed` and
 * `storyMax` (for `format: story`). Attachment `min`/`max` belong to the content checks.
 *
 * Pure. Targets whose capabilities are missing or `supported: false` are skipped (the planner
 * reports those accounts); media without a probe, or probed `unknown`, are skipped (content
 * reading reports unreadable files). Each diagnostic names the post file, the media path, the
 * account as written in the post and the rule with its limit.
 *
 * Every broken rule here is a publishing rule: a readiness warning while the post is a draft, an
 * error once it is scheduled (`readinessOf`). Advice (a duration that could not be read, a video
 * too long to be a short) stays a plain warning.
 */
export function checkMediaAgainstCapabilities(
  post: DesiredPost,
  probes: ReadonlyMap<string, ProbedMedia>,
  capabilitiesByAccountId: ReadonlyMap<string, Capabilities>,
  /** Shared by the posts of one run of checks: each file is checked once per account. */
  findings: MediaFindings = new MediaFindings(),
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const located = (finding: Finding, position: { line: number; column: number } | null | undefined): Diagnostic => {
    const diagnostic = { ...finding, file: post.file, ...(position ? { line: position.line, column: position.column } : {}) };
    return finding.severity === 'error' ? readinessOf(diagnostic, post.shape) : diagnostic;
  };
  post.shape.targets.forEach((target, targetIndex) => {
    const capabilities = capabilitiesByAccountId.get(target.socialAccountId);
    if (!capabilities?.supported) return;
    const account: TargetRules = {
      account: `${post.targetLabels[targetIndex] ?? target.socialAccountId} (${capabilities.account.platform})`,
      rules: capabilities.rules,
    };
    if (target.options.format !== undefined) account.format = target.options.format;
    const checked = new Set<string>();
    post.media.forEach((media, mediaIndex) => {
      const probe = probes.get(media.sha256);
      if (!probe || checked.has(media.path)) return;
      checked.add(media.path);
      for (const finding of findings.of(media.path, probe, account)) diagnostics.push(located(finding, post.locations?.media[mediaIndex]));
    });
    for (const finding of checkAttachments(post, account)) diagnostics.push(located(finding, post.locations?.targets[targetIndex]));
  });
  return diagnostics;
}

/**
 * Findings by rules, probe, path and account, made once for one run of checks: thousands of
 * posts share a few media files and accounts, and each combination is checked once. Keyed by
 * the very rules and probe objects, so findings made under other rules are never handed out.
 */
export class MediaFindings {
  readonly #memo = new WeakMap<object, WeakMap<ProbedMedia, Map<string, Finding[]>>>();

  of(path: string, probe: ProbedMedia, account: TargetRules): Finding[] {
    let byProbe = this.#memo.get(account.rules);
    if (byProbe === undefined) this.#memo.set(account.rules, (byProbe = new WeakMap()));
    let byUse = byProbe.get(probe);
    if (byUse === undefined) byProbe.set(probe, (byUse = new Map()));
    const key = `${path}\0${account.account}\0${account.format ?? ''}`;
    let findings = byUse.get(key);
    if (findings === undefined) {
      findings = probe.kind === 'image' ? checkImage(path, probe, account) : probe.kind === 'video' ? checkVideo(path, probe, account) : [];
      byUse.set(key, findings);
    }
    return findings;
  }
}

function checkAttachments(post: DesiredPost, target: TargetRules): Finding[] {
  const { attachments } = target.rules;
  const videos = post.media.filter((media) => media.kind === 'video').length;
  const images = post.media.filter((media) => media.kind === 'image').length;
  const findings: Finding[] = [];
  if (videos > attachments.maxVideos) {
    const accepts = attachments.maxVideos === 0 ? 'accepts no videos' : `accepts at most ${plural(attachments.maxVideos, 'video')}`;
    findings.push({
      severity: 'error',
      code: 'too-many-videos',
      message: `the post has ${plural(videos, 'video')}; ${target.account} ${accepts} per post (rules.attachments.maxVideos)`,
      expected: `at most ${plural(attachments.maxVideos, 'video')}`,
      found: plural(videos, 'video'),
      hint: 'Split the videos into separate posts for this account.',
    });
  }
  if (!attachments.allowMixed && videos > 0 && images > 0) {
    findings.push({
      severity: 'error',
      code: 'mixed-media-not-allowed',
      message: `the post has ${formatList([plural(images, 'image'), plural(videos, 'video')])}; ${target.account} does not accept images and videos in one post (rules.attachments.allowMixed)`,
      expected: 'only images or only videos',
      found: `${plural(images, 'image')} and ${plural(videos, 'video')}`,
      hint: 'Post the images and the videos separately for this account.',
    });
  }
  if (target.format === 'story' && post.media.length > attachments.storyMax) {
    findings.push({
      severity: 'error',
      code: 'too-many-story-media',
      message: `the post has ${plural(post.media.length, 'media file')}; ${target.account} accepts at most ${attachments.storyMax} in a story (rules.attachments.storyMax, format: story)`,
      expected: `at most ${plural(attachments.storyMax, 'media file')}`,
      found: plural(post.media.length, 'media file'),
      hint: `Keep ${attachments.storyMax === 1 ? 'one media file' : `at most ${attachments.storyMax} media files`} in a story, or use another format.`,
    });
  }
  return findings;
}
