import { extname } from 'node:path';
import type { Capabilities, CaptionRules } from '../api/types.js';
import type { DesiredMedia, DesiredPost } from '../content/types.js';
import type { ProbedMedia } from '../media/media-rules.js';
import { cutCaption } from './caption-cut.js';
import type { CalendarTarget, ContentMedia, ContentTarget, PostContent, Slot } from './model.js';
import type { Placer } from './zone-placer.js';

/**
 * What a post's calendar entry takes from its files alone: its slot and its content (text, each
 * account's preview, media), with what the model needs to know of that content without decoding
 * it. The remote (statuses, poster frames) and the plan (overlay, change) are added when the model
 * is built.
 */
export interface PostCard {
  key: string;
  file: string;
  /** The post's shape hash: without the remote, its status is whether the state applied this shape. */
  shapeHash: string;
  slot: Slot | null;
  /** A draft's pencilled time (DesiredPost.pencilledAt), placed. */
  pencilled: Slot | null;
  /** The accounts of the content's targets, by id, in its order. */
  accounts: string[];
  /** The content's media files, in its order: what their pictures are made from. */
  media: CardMedia[];
  content: PostContent;
}

/**
 * Where a media file's picture comes from: an image is copied under `thumbnail` (its content hash),
 * from `path` in the project; a video shows the poster frame the remote made of its file (`video`,
 * the sha256), when there is one.
 */
export type CardMedia = { thumbnail: string; path: string } | { video: string };

/** Where a page finds an image's thumbnail: `mediaPrefix` (its folder, or a server's route) and the thumbnail's name. */
export function thumbnailSrc(mediaPrefix: string, media: { thumbnail: string }): string {
  return `${mediaPrefix}${media.thumbnail}`;
}

/** A card's images: the name a page under `mediaPrefix` gives each → its project file. */
export function cardThumbnails(card: Pick<PostCard, 'media'>, mediaPrefix: string): [string, string][] {
  return card.media.flatMap((media): [string, string][] => ('thumbnail' in media ? [[thumbnailSrc(mediaPrefix, media), media.path]] : []));
}

/** What every card of one calendar is made with. */
export interface CardContext {
  /** Places instants in the project's time zone. */
  place: Placer;
  /** Each account's caption rules, by id (none: no limit, counted in characters). */
  captions: ReadonlyMap<string, CaptionLimit>;
  /** What probing found in the media files, by sha256. */
  probes: ReadonlyMap<string, ProbedMedia>;
}

/** How an account counts a caption, and how long it may be (null: no limit). */
export interface CaptionLimit {
  unit: CaptionRules['lengthUnit'];
  maxLength: number | null;
}

/** The caption limits of the accounts (CardContext.captions). */
export function captionsOf(capabilities: ReadonlyMap<string, Capabilities>): Map<string, CaptionLimit> {
  return new Map([...capabilities].map(([id, { rules }]) => [id, { unit: rules.caption.lengthUnit, maxLength: rules.caption.maxLength }]));
}

const IMAGE_EXTENSIONS: Record<string, string> = { 'image/jpeg': '.jpg', 'image/png': '.png', 'image/webp': '.webp', 'image/gif': '.gif' };

/** The card of a post read in full. */
export function postCard(post: DesiredPost, context: CardContext): PostCard {
  const { shape } = post;
  const targets = shape.targets.map((target, index): ContentTarget => {
    const caption = context.captions.get(target.socialAccountId);
    return {
      account: target.socialAccountId,
      label: post.targetLabels[index] ?? target.socialAccountId,
      override: target.contentOverride !== undefined,
      ...captionPreview(target.contentOverride ?? shape.content, shape.content, caption),
      options: optionsShown(target.options),
    };
  });
  const content: PostContent = { text: shape.content, targets, media: post.media.map((media) => contentMedia(media, context.probes)) };
  return {
    key: post.key,
    file: post.file,
    shapeHash: post.shapeHash,
    slot: context.place(shape.scheduledAt),
    pencilled: context.place(post.pencilledAt ?? null),
    accounts: targets.map((target) => target.account),
    media: post.media.map(cardMedia),
    content,
  };
}

function cardMedia(media: DesiredMedia): CardMedia {
  if (media.kind === 'video') return { video: media.sha256 };
  return { thumbnail: `${media.sha256.slice(0, 20)}${IMAGE_EXTENSIONS[media.contentType] ?? (extname(media.path).toLowerCase() || '.img')}`, path: media.path };
}

function contentMedia(media: DesiredMedia, probes: CardContext['probes']): ContentMedia {
  const probe = probes.get(media.sha256);
  return {
    kind: media.kind,
    path: media.path,
    type: media.contentType,
    ...(media.alt === undefined ? {} : { alt: media.alt }),
    ...(probe?.width === undefined ? {} : { width: probe.width }),
    ...(probe?.height === undefined ? {} : { height: probe.height }),
    ...(probe?.durationSeconds === undefined ? {} : { durationSeconds: probe.durationSeconds }),
    sizeBytes: media.sizeBytes,
  };
}

/**
 * A caption as an account with this limit shows it (none: no limit, counted in characters);
 * `shown` is left out when it is the post's text whole, so the page keeps one copy of it.
 */
export function captionPreview(text: string, postText: string, limit: CaptionLimit | undefined): Pick<CalendarTarget, 'shown' | 'overflow' | 'length'> {
  const { shown, overflow, length } = cutCaption(text, limit?.unit ?? 'characters', limit?.maxLength ?? null);
  return shown === postText ? { overflow, length } : { shown, overflow, length };
}

/** A target's options as the preview lists them. */
export function optionsShown(options: object): CalendarTarget['options'] {
  return Object.entries(options)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => (Array.isArray(value) ? { name, value: optionText(value), list: value.map(String) } : { name, value: optionText(value) }));
}

/** An option's value as the preview shows it. */
function optionText(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}
