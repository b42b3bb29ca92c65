import type { Capabilities } from '../../api/types.js';

/** The `rules` object of the capabilities endpoint. */
export type PlatformRules = Capabilities['rules'];

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** Every platform takes MP4/MOV with H.264 or HEVC video and AAC audio; limits differ. */
const videos = (maxBytes: number, minDurationSeconds: number, maxDurationSeconds: number): PlatformRules['media']['videos'] => ({
  contentTypes: ['video/mp4', 'video/quicktime'],
  videoCodecs: ['h264', 'hevc'],
  audioCodecs: ['aac'],
  maxBytes,
  minDurationSeconds,
  maxDurationSeconds,
});

const NO_IMAGES: PlatformRules['media']['images'] = { contentTypes: [], maxBytes: 0 };

const photoC: PlatformRules = {
  caption: { maxLength: 2200, lengthUnit: 'characters', requiredExcept: 'media' },
  attachments: { min: 1, max: 10, maxVideos: 10, storyMax: 1, allowMixed: true },
  options: {
    format: { type: 'string', values: ['feed', 'story', 'reel'] },
    shareToFeed: { type: 'boolean' },
    link: { type: 'string', maxLength: 2048 },
  },
  media: {
    images: { contentTypes: ['image/jpeg', 'image/png', 'image/webp'], maxBytes: 8 * MiB },
    videos: videos(100 * MiB, 3, 90),
  },
  notes: [
    'A post needs at least one image or video; a carousel holds up to 10 items.',
    '`format: story` takes exactly one item; `shareToFeed` applies to reels.',
  ],
};

const vidA: PlatformRules = {
  caption: { maxLength: 5000, lengthUnit: 'characters', requiredExcept: 'always' },
  attachments: { min: 1, max: 1, maxVideos: 1, storyMax: 0, allowMixed: false },
  options: {
    vidATitle: { type: 'string', maxLength: 100, required: true },
    vidADescription: { type: 'string', maxLength: 5000 },
    vidAMadeForKids: { type: 'boolean' },
    vidATags: { type: 'array', maxItems: 30, maxLength: 100 },
  },
  media: {
    images: NO_IMAGES,
    videos: videos(2 * GiB, 1, 43200),
  },
  notes: ['Video only: exactly one video per post.', '`vidATitle` is required; the caption becomes the description when `vidADescription` is absent.'],
  maxVideoDurationSeconds: 43200,
};

const shortB: PlatformRules = {
  caption: { maxLength: 2200, lengthUnit: 'utf16', requiredExcept: 'video' },
  attachments: { min: 1, max: 1, maxVideos: 1, storyMax: 0, allowMixed: false },
  options: {
    shortBCaption: { type: 'string', maxLength: 2200 },
    shortBAllowComment: { type: 'boolean' },
    shortBAllowDuet: { type: 'boolean' },
    shortBAllowStitch: { type: 'boolean' },
    shortBDisclose: { type: 'boolean' },
    shortBBrandContent: { type: 'boolean' },
    shortBBrandOrganic: { type: 'boolean' },
    shortBIsAigc: { type: 'boolean' },
  },
  media: {
    images: NO_IMAGES,
    videos: videos(500 * MiB, 3, 600),
  },
  notes: ['Exactly one video of 3 to 600 seconds.', 'Videos up to 180 seconds are shown as shorts.'],
  maxShortDurationSeconds: 180,
};

const unsupported: PlatformRules = {
  caption: { maxLength: 0, lengthUnit: 'characters', requiredExcept: 'always' },
  attachments: { min: 0, max: 0, maxVideos: 0, storyMax: 0, allowMixed: false },
  options: {},
  media: {
    images: NO_IMAGES,
    videos: { contentTypes: [], videoCodecs: [], audioCodecs: [], maxBytes: 0, minDurationSeconds: 0, maxDurationSeconds: 0 },
  },
  notes: ['This platform is not supported by the service.'],
};

const RULES: Readonly<Record<string, PlatformRules>> = { photoC, vidA, shortB };

export const isSupportedPlatform = (platform: string): boolean => Object.hasOwn(RULES, platform);

export function rulesFor(platform: string): PlatformRules {
  return RULES[platform] ?? unsupported;
}

/**
 * Response-only option fields the service fills in per platform (choice; allowed values:
 * vidAPrivacy private|unlisted|public, shortBMode direct|inbox,
 * shortBPrivacy PUBLIC_TO_EVERYONE|MUTUAL_FOLLOW_FRIENDS|SELF_ONLY).
 */
export function responseOnlyOptions(platform: string): Record<string, string> {
  if (platform === 'vidA') return { vidAPrivacy: 'private' };
  if (platform === 'shortB') return { shortBMode: 'direct', shortBPrivacy: 'PUBLIC_TO_EVERYONE' };
  return {};
}
