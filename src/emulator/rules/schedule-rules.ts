import type { CaptionRules, Target } from '../../api/types.js';
import type { AccountRecord, StoredMedia } from '../store/model.js';
import { rulesFor } from './platform-rules.js';
import type { Project } from '../store/store.js';
import { type Violations, codePointLength } from '../protocol/validate.js';

/** Why an account cannot receive posts, or undefined when it can. */
export function unavailableReason(account: AccountRecord): string | undefined {
  if (!account.available) return account.unavailableReason ?? 'the account is unavailable';
  if (account.status !== 'active') return account.unavailableReason ?? `the account is ${account.status}`;
  return undefined;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export function captionLength(text: string, unit: CaptionRules['lengthUnit']): number {
  switch (unit) {
    case 'utf16':
      return text.length;
    case 'bytes':
      return Buffer.byteLength(text, 'utf8');
    case 'graphemes':
      return [...graphemes.segment(text)].length;
    default:
      return codePointLength(text);
  }
}

function captionRequired(rule: CaptionRules['requiredExcept'], media: readonly StoredMedia[]): boolean {
  if (rule === 'always') return false;
  if (rule === 'media') return media.length === 0;
  if (rule === 'video') return !media.some((m) => m.kind === 'video');
  return true;
}

/**
 * The per-account rules of the capabilities endpoint, enforced when a post becomes (or stays)
 * scheduled: drafts may be incomplete, a schedule must be publishable. Every problem is collected.
 * These are the publishing rules: available accounts, caption length and presence, required
 * options, attachment counts, media types, sizes, codecs and durations.
 */
export function checkPublishable(project: Project, post: { content: string; targets: readonly Target[]; media: readonly StoredMedia[] }, violations: Violations): void {
  if (post.targets.length === 0) violations.add('a scheduled post needs at least one target');
  post.targets.forEach((target, i) => {
    const where = `targets[${i}] (${target.handle}, ${target.platform})`;
    const account = project.account(target.socialAccountId);
    const reason = account ? unavailableReason(account) : 'the account no longer exists';
    if (reason) violations.add(`${where}: account unavailable: ${reason}`);
    const rules = rulesFor(target.platform);
    const caption = target.contentOverride ?? post.content;
    const length = captionLength(caption, rules.caption.lengthUnit);
    if (length > rules.caption.maxLength) violations.add(`${where}: caption is ${length} ${rules.caption.lengthUnit} long, at most ${rules.caption.maxLength} allowed`);
    if (caption.trim() === '' && captionRequired(rules.caption.requiredExcept, post.media)) violations.add(`${where}: a caption is required`);
    for (const [name, rule] of Object.entries(rules.options)) {
      if (rule.required === true && target.options[name as keyof typeof target.options] === undefined) violations.add(`${where}: options.${name} is required to schedule a post`);
    }
    checkAttachments(where, rules, post.media, target.options.format === 'story', violations);
  });
}

function checkAttachments(where: string, rules: ReturnType<typeof rulesFor>, media: readonly StoredMedia[], story: boolean, violations: Violations): void {
  const { attachments } = rules;
  const videos = media.filter((m) => m.kind === 'video');
  const max = story ? attachments.storyMax : attachments.max;
  if (media.length < attachments.min) violations.add(`${where}: needs at least ${attachments.min} media item(s), got ${media.length}`);
  if (media.length > max) violations.add(`${where}: allows at most ${max} media item(s)${story ? ' in a story' : ''}, got ${media.length}`);
  if (videos.length > attachments.maxVideos) violations.add(`${where}: allows at most ${attachments.maxVideos} video(s), got ${videos.length}`);
  if (!attachments.allowMixed && videos.length > 0 && videos.length < media.length) violations.add(`${where}: cannot mix images and videos`);
  for (const item of media) {
    const name = `media ${item.id} (${item.fileName})`;
    if (item.kind === 'image') {
      const { images } = rules.media;
      if (!images.contentTypes.includes(item.contentType)) violations.add(`${where}: ${name}: ${item.contentType} images are not accepted${images.contentTypes.length ? ` (accepted: ${images.contentTypes.join(', ')})` : ''}`);
      else if (item.sizeBytes > images.maxBytes) violations.add(`${where}: ${name} is ${item.sizeBytes} bytes, images may be at most ${images.maxBytes}`);
      continue;
    }
    const { videos: rule } = rules.media;
    if (!rule.contentTypes.includes(item.contentType)) violations.add(`${where}: ${name}: ${item.contentType} videos are not accepted`);
    else if (item.sizeBytes > rule.maxBytes) violations.add(`${where}: ${name} is ${item.sizeBytes} bytes, videos may be at most ${rule.maxBytes}`);
    if (item.videoCodec && !rule.videoCodecs.includes(item.videoCodec)) violations.add(`${where}: ${name}: ${item.videoCodec} video is not accepted (accepted: ${rule.videoCodecs.join(', ')})`);
    if (item.audioCodec && !rule.audioCodecs.includes(item.audioCodec)) violations.add(`${where}: ${name}: ${item.audioCodec} audio is not accepted (accepted: ${rule.audioCodecs.join(', ')})`);
    const seconds = item.durationSeconds;
    if (seconds !== undefined && (seconds < rule.minDurationSeconds || seconds > rule.maxDurationSeconds)) {
      violations.add(`${where}: ${name} lasts ${seconds} s, videos must last ${rule.minDurationSeconds} to ${rule.maxDurationSeconds} s`);
    }
  }
}
