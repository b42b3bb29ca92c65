/**
 * Wire types of the Public Posting API (spec: shared/spec/public-posting-api.md), shared by the
 * emulator (which serves them), the client (which reads them) and the planner (which diffs them).
 *
 * Where the spec says "not shown", the choice postsync makes is written here and in
 * schemas/openapi.yaml (marked `x-postsync-choice`). The client must stay tolerant: unknown status
 * values and unknown fields pass through untouched, which is why the string unions below are open.
 */

/** An open string union: the named values plus any other string the service may send. */
export type Open<T extends string> = T | (string & {});

/**
 * Post status. Spec names `draft`, `scheduled`, `published`. Emulator choice adds:
 * `publishing` (some targets still waiting/retrying), `failed` (every target failed),
 * `partially_published` (some published, the rest failed).
 * Only `draft` and `scheduled` posts are editable or deletable.
 */
export type PostStatus = Open<'draft' | 'scheduled' | 'publishing' | 'published' | 'partially_published' | 'failed'>;

/** Target status. Spec names `pending`. Emulator choice adds `waiting` (throttled, see waitReason/nextAttemptAt), `published`, `failed`. */
export type TargetStatus = Open<'pending' | 'waiting' | 'published' | 'failed'>;

export type Platform = Open<'photoC' | 'vidA' | 'shortB'>;

export type MediaKind = Open<'image' | 'video'>;

export type Permission =
  | 'accounts-read'
  | 'posts-read'
  | 'posts-write'
  | 'posts-publish'
  | 'posts-delete'
  | 'media-write';

export const ALL_PERMISSIONS: readonly Permission[] = [
  'accounts-read',
  'posts-read',
  'posts-write',
  'posts-publish',
  'posts-delete',
  'media-write',
];

/** Option fields a caller may send. */
export interface OptionsInput {
  format?: string;
  shareToFeed?: boolean;
  link?: string;
  vidATitle?: string;
  vidADescription?: string;
  vidAMadeForKids?: boolean;
  vidATags?: string[];
  shortBCaption?: string;
  shortBAllowComment?: boolean;
  shortBAllowDuet?: boolean;
  shortBAllowStitch?: boolean;
  shortBDisclose?: boolean;
  shortBBrandContent?: boolean;
  shortBBrandOrganic?: boolean;
  shortBIsAigc?: boolean;
}

/** Every input option field, in spec order: the only option fields postsync sends or compares. */
export const INPUT_OPTION_FIELDS = [
  'format',
  'shareToFeed',
  'link',
  'vidATitle',
  'vidADescription',
  'vidAMadeForKids',
  'vidATags',
  'shortBCaption',
  'shortBAllowComment',
  'shortBAllowDuet',
  'shortBAllowStitch',
  'shortBDisclose',
  'shortBBrandContent',
  'shortBBrandOrganic',
  'shortBIsAigc',
] as const satisfies readonly (keyof OptionsInput)[];

/** Option fields the service fills in; never sent, and stripped before any comparison. */
export const RESPONSE_ONLY_OPTION_FIELDS = ['vidAPrivacy', 'shortBMode', 'shortBPrivacy'] as const;

/** Options as returned: the input fields echoed exactly as sent, plus response-only fields. No input defaults are added. */
export interface Options extends OptionsInput {
  vidAPrivacy?: string;
  shortBMode?: string;
  shortBPrivacy?: string;
  [extra: string]: unknown;
}

export interface Target {
  socialAccountId: string;
  platform: Platform;
  handle: string;
  contentOverride?: string;
  options: Options;
  status: TargetStatus;
  externalPostId?: string;
  error?: string;
  waitReason?: string;
  nextAttemptAt?: string;
  publishedAt?: string;
  [extra: string]: unknown;
}

export interface Media {
  id: string;
  kind: MediaKind;
  url: string;
  posterUrl?: string;
  sourceAvailable: boolean;
  contentType: string;
  width?: number;
  height?: number;
  durationSeconds?: number;
  [extra: string]: unknown;
}

export interface Post {
  id: string;
  status: PostStatus;
  content: string;
  scheduledAt: string | null;
  publishedAt?: string;
  createdAt: string;
  updatedAt: string;
  targets: Target[];
  media: Media[];
  [extra: string]: unknown;
}

export interface TargetInput {
  socialAccountId: string;
  options?: OptionsInput;
  contentOverride?: string;
}

/**
 * Body of POST /posts. Choice: the same fields as the edit body; `content`, `targets` and
 * `mediaIds` are required, `scheduledAt` is optional (non-null needs `posts-publish`).
 * postsync's applier always creates without `scheduledAt` and schedules with a PATCH, so that a
 * create never needs the publish permission.
 */
export interface CreatePostBody {
  content: string;
  targets: TargetInput[];
  mediaIds: string[];
  scheduledAt?: string | null;
}

/** Body of PATCH /posts/{id}: at least one field. */
export interface PatchPostBody {
  content?: string;
  targets?: TargetInput[];
  mediaIds?: string[];
  scheduledAt?: string | null;
}

/** Success envelope. */
export interface Envelope<T> {
  data: T;
  meta: { requestId: string };
}

/** Error envelope. */
export interface ErrorEnvelope {
  error: { code: string; message: string | string[] };
  meta: { requestId: string };
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export type PostSort = 'schedule_desc' | 'schedule_asc' | 'newest' | 'oldest';

export interface ListPostsQuery {
  limit?: number;
  status?: string;
  platform?: string;
  q?: string;
  sort?: PostSort;
  after?: string;
  before?: string;
}

/** GET /auth/session `data`. Choice (field names not shown in the spec). */
export interface Session {
  project: { id: string };
  key: { expiresAt: string | null };
  permissions: Permission[];
}

/**
 * One entry of GET /accounts (choice). The list is paged like posts: `data` is a Page with
 * `limit` (1..100, default 50) and `after`. The client also accepts a bare array in `data`.
 */
export interface Account {
  id: string;
  platform: Platform;
  handle: string;
  status: Open<'active' | 'disconnected' | 'expired'>;
  [extra: string]: unknown;
}

/**
 * Caption rules. Choices: `lengthUnit` is one of `characters` (Unicode code points),
 * `graphemes`, `utf16` (UTF-16 code units) or `bytes` (UTF-8); `requiredExcept` says when a
 * caption may be empty: `always` (never required), `media` (optional when the post has any media),
 * `video` (optional only when the post has a video), `never` (always required).
 */
export interface CaptionRules {
  maxLength: number;
  lengthUnit: Open<'characters' | 'graphemes' | 'utf16' | 'bytes'>;
  requiredExcept: Open<'always' | 'media' | 'video' | 'never'>;
}

export interface AttachmentRules {
  min: number;
  max: number;
  maxVideos: number;
  storyMax: number;
  allowMixed: boolean;
}

/**
 * Choice for `rules.options`: one entry per input option field the platform accepts. A field
 * not listed is rejected for that platform (400). `required` fields must be present.
 */
export interface OptionRule {
  type: 'string' | 'boolean' | 'array';
  values?: string[];
  maxLength?: number;
  maxItems?: number;
  required?: boolean;
}

export interface Capabilities {
  account: { id: string; platform: Platform; status: string };
  supported: boolean;
  available: boolean;
  reason?: string;
  requiredPermissions: {
    discover: string[];
    draft: string[];
    schedule: string[];
    publish: string[];
    upload: string[];
  };
  rules: {
    caption: CaptionRules;
    attachments: AttachmentRules;
    options: Record<string, OptionRule>;
    media: {
      images: { contentTypes: string[]; maxBytes: number };
      videos: {
        contentTypes: string[];
        videoCodecs: string[];
        audioCodecs: string[];
        maxBytes: number;
        minDurationSeconds: number;
        maxDurationSeconds: number;
      };
    };
    notes: string[];
    maxShortDurationSeconds?: number;
    maxVideoDurationSeconds?: number;
  };
  [extra: string]: unknown;
}

/**
 * POST /media/uploads body (choice; the spec does not show upload endpoints).
 * Needs `media-write`. `sizeBytes` is checked again by the complete call.
 */
export interface CreateUploadBody {
  kind: 'image' | 'video';
  contentType: string;
  sizeBytes: number;
  fileName: string;
}

/**
 * POST /media/uploads 201 `data` (choice). Exactly one of `upload.url` (single presigned PUT) or
 * `upload.multipart` is present. Videos over MULTIPART_THRESHOLD_BYTES get multipart, with a part
 * size chosen so that partCount <= 128 (every part but the last is exactly partSizeBytes).
 * Presigned URLs are absolute, point at the emulator's `/_storage/...`, need no API key, and
 * expire at `expiresAt`. A part PUT answers with an `ETag` header.
 */
export interface UploadTicket {
  media: Media;
  upload: {
    method: 'PUT';
    url?: string;
    headers?: Record<string, string>;
    expiresAt: string;
    multipart?: { partSizeBytes: number; partCount: number };
  };
}

/** Emulator choice: videos strictly larger than this use multipart. */
export const MULTIPART_THRESHOLD_BYTES = 32 * 1024 * 1024;

export type MultipartOperation = 'list' | 'sign' | 'complete' | 'abort';

export type MultipartResult =
  | { url: string }
  | { parts: { partNumber: number; etag: string; size: number }[] }
  | { completed: true }
  | { aborted: true };

/**
 * GET /analytics/posts item (choice). Filters (choice): `from`, `to` (date-time, on publishedAt),
 * `accountId`, `platform`, `limit` (1..100, default 50), `cursor` (opaque).
 */
export interface AnalyticsItem {
  postId: string;
  socialAccountId: string;
  platform: Platform;
  externalPostId: string;
  publishedAt: string;
  impressions: number;
  reach: number;
  likes: number;
  comments: number;
  shares: number;
  clicks: number;
  videoViews?: number;
  [extra: string]: unknown;
}

export interface AnalyticsQuery {
  from?: string;
  to?: string;
  accountId?: string;
  platform?: string;
  limit?: number;
  cursor?: string;
}
