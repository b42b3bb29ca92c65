import { checkedObject, fieldName, ResponseShapeError, type FieldType, type Where } from './read-fields.js';
import type { Post } from './types.js';

const LISTS = ['targets', 'media'] as const;

/** Fields of a post postsync reads, by the type the spec gives them; `id` is required. */
const POST_FIELDS: Readonly<Record<string, FieldType>> = { id: 'text', status: 'text', content: 'text', scheduledAt: 'text', publishedAt: 'text', createdAt: 'text', updatedAt: 'text' };

const POST_SHAPE = { required: ['id'], fields: POST_FIELDS } as const;

/** Fields of a target; `socialAccountId` is required. */
const TARGET_FIELDS: Readonly<Record<string, FieldType>> = {
  socialAccountId: 'text',
  platform: 'text',
  handle: 'text',
  contentOverride: 'text',
  options: 'object',
  status: 'text',
  externalPostId: 'text',
  error: 'text',
  waitReason: 'text',
  nextAttemptAt: 'text',
  publishedAt: 'text',
};

/** Fields of a media; `id` is required. */
export const MEDIA_FIELDS: Readonly<Record<string, FieldType>> = {
  id: 'text',
  kind: 'text',
  url: 'text',
  posterUrl: 'text',
  sourceAvailable: 'boolean',
  contentType: 'text',
  width: 'number',
  height: 'number',
  durationSeconds: 'number',
};

/** Each list item's shape: its required id field, and its fields. */
const ITEM_SHAPES: Readonly<Record<(typeof LISTS)[number], { required: readonly string[]; fields: Readonly<Record<string, FieldType>> }>> = {
  targets: { required: ['socialAccountId'], fields: TARGET_FIELDS },
  media: { required: ['id'], fields: MEDIA_FIELDS },
};

/**
 * A post as an endpoint answered it (`field`: where it sits in the answer, e.g. `items[3]`), checked
 * by `checkedObject`, and each of its targets and media too. `targets` or `media` left out (or null)
 * read as none, as a service may leave out empty lists; anything else that is not a list is an error.
 * Every other field and value stays as sent.
 */
export function readPost(endpoint: string, data: unknown, field: Where = ''): Post {
  let post = checkedObject(endpoint, data, field, POST_SHAPE);
  for (const list of LISTS) {
    const value = post[list];
    if (value === undefined || value === null) post = { ...post, [list]: [] };
    else if (!Array.isArray(value)) throw new ResponseShapeError(endpoint, fieldName(field, list), value, 'is not a list');
    else value.forEach((item, index) => checkedObject(endpoint, item, () => fieldName(field, `${list}[${index}]`), ITEM_SHAPES[list]));
  }
  return post as Post;
}

/** The posts of a listing page, each read by `readPost`. */
export function readPosts(endpoint: string, items: readonly unknown[]): Post[] {
  return items.map((item, index) => readPost(endpoint, item, () => `items[${index}]`));
}
