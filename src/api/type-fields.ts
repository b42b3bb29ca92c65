import type {
  Account,
  AnalyticsItem,
  Capabilities,
  CreatePostBody,
  CreateUploadBody,
  Media,
  Options,
  OptionsInput,
  PatchPostBody,
  Post,
  Session,
  Target,
  TargetInput,
  UploadTicket,
} from './types.js';

/**
 * The property names of the wire types in types.ts, as data, so a test can compare them with
 * schemas/openapi.yaml. The compiler keeps each list equal to its interface: a name that is not a
 * property fails `satisfies`, a property missing from the list fails the `Exact` check below.
 * `required` lists the non-optional properties.
 */

/** Declared property names, without the `[extra: string]: unknown` index signature. */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };
type RequiredKeys<T> = { [K in KnownKeys<T>]-?: object extends Pick<T, K> ? never : K }[KnownKeys<T>];
type Exact<Listed extends string, Declared> = [Exclude<Declared, Listed>] extends [never] ? true : { missing: Exclude<Declared, Listed> };

function fields<T>() {
  return <const All extends readonly KnownKeys<T>[], const Required extends readonly RequiredKeys<T>[]>(
    all: All & (Exact<All[number], KnownKeys<T>> extends true ? unknown : Exact<All[number], KnownKeys<T>>),
    required: Required & (Exact<Required[number], RequiredKeys<T>> extends true ? unknown : Exact<Required[number], RequiredKeys<T>>),
  ) => ({ all: [...all] as string[], required: [...required] as string[] });
}

/** OpenAPI component schema name → the fields of the matching TypeScript type. */
export const WIRE_TYPE_FIELDS = {
  Post: fields<Post>()(
    ['id', 'status', 'content', 'scheduledAt', 'publishedAt', 'createdAt', 'updatedAt', 'targets', 'media'],
    ['id', 'status', 'content', 'scheduledAt', 'createdAt', 'updatedAt', 'targets', 'media'],
  ),
  Target: fields<Target>()(
    ['socialAccountId', 'platform', 'handle', 'contentOverride', 'options', 'status', 'externalPostId', 'error', 'waitReason', 'nextAttemptAt', 'publishedAt'],
    ['socialAccountId', 'platform', 'handle', 'options', 'status'],
  ),
  Options: fields<Options>()(
    ['format', 'shareToFeed', 'link', 'vidATitle', 'vidADescription', 'vidAMadeForKids', 'vidATags', 'shortBCaption', 'shortBAllowComment', 'shortBAllowDuet', 'shortBAllowStitch', 'shortBDisclose', 'shortBBrandContent', 'shortBBrandOrganic', 'shortBIsAigc', 'vidAPrivacy', 'shortBMode', 'shortBPrivacy'],
    [],
  ),
  OptionsInput: fields<OptionsInput>()(
    ['format', 'shareToFeed', 'link', 'vidATitle', 'vidADescription', 'vidAMadeForKids', 'vidATags', 'shortBCaption', 'shortBAllowComment', 'shortBAllowDuet', 'shortBAllowStitch', 'shortBDisclose', 'shortBBrandContent', 'shortBBrandOrganic', 'shortBIsAigc'],
    [],
  ),
  Media: fields<Media>()(
    ['id', 'kind', 'url', 'posterUrl', 'sourceAvailable', 'contentType', 'width', 'height', 'durationSeconds'],
    ['id', 'kind', 'url', 'sourceAvailable', 'contentType'],
  ),
  TargetInput: fields<TargetInput>()(['socialAccountId', 'options', 'contentOverride'], ['socialAccountId']),
  CreatePostBody: fields<CreatePostBody>()(['content', 'targets', 'mediaIds', 'scheduledAt'], ['content', 'targets', 'mediaIds']),
  PatchPostBody: fields<PatchPostBody>()(['content', 'targets', 'mediaIds', 'scheduledAt'], []),
  Session: fields<Session>()(['project', 'key', 'permissions'], ['project', 'key', 'permissions']),
  Account: fields<Account>()(['id', 'platform', 'handle', 'status'], ['id', 'platform', 'handle', 'status']),
  Capabilities: fields<Capabilities>()(
    ['account', 'supported', 'available', 'reason', 'requiredPermissions', 'rules'],
    ['account', 'supported', 'available', 'requiredPermissions', 'rules'],
  ),
  CreateUploadBody: fields<CreateUploadBody>()(['kind', 'contentType', 'sizeBytes', 'fileName'], ['kind', 'contentType', 'sizeBytes', 'fileName']),
  UploadTicket: fields<UploadTicket>()(['media', 'upload'], ['media', 'upload']),
  AnalyticsItem: fields<AnalyticsItem>()(
    ['postId', 'socialAccountId', 'platform', 'externalPostId', 'publishedAt', 'impressions', 'reach', 'likes', 'comments', 'shares', 'clicks', 'videoViews'],
    ['postId', 'socialAccountId', 'platform', 'externalPostId', 'publishedAt', 'impressions', 'reach', 'likes', 'comments', 'shares', 'clicks'],
  ),
} as const;
