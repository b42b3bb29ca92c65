import { checkedObject, type FieldType } from './read-fields.js';
import type { AnalyticsItem } from './types.js';

/** Fields of an analytics item postsync reads; the post and account ids are required. */
const ITEM_FIELDS: Readonly<Record<string, FieldType>> = {
  postId: 'text',
  socialAccountId: 'text',
  platform: 'text',
  externalPostId: 'text',
  publishedAt: 'text',
  impressions: 'number',
  reach: 'number',
  likes: 'number',
  comments: 'number',
  shares: 'number',
  clicks: 'number',
  videoViews: 'number',
};

/** Every item of an analytics listing, checked by `checkedObject` (`index` counts over all pages). */
export async function* readAnalyticsItems(items: AsyncIterable<unknown>): AsyncGenerator<AnalyticsItem> {
  let index = 0;
  for await (const item of items) {
    yield checkedObject('GET /analytics/posts', item, `items[${index}]`, { required: ['postId', 'socialAccountId'], fields: ITEM_FIELDS }) as AnalyticsItem;
    index += 1;
  }
}
