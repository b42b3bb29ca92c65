import { checkedObject, type FieldType } from './read-fields.js';
import type { Account } from './types.js';

const ENDPOINT = 'GET /accounts';

/** Fields of an account postsync reads; `id` is required. */
const ACCOUNT_FIELDS: Readonly<Record<string, FieldType>> = { id: 'text', platform: 'text', handle: 'text', status: 'text' };

/** The accounts of a listing (a page's items, or a bare array), each checked by `checkedObject`. */
export function readAccounts(items: readonly unknown[]): Account[] {
  return items.map((item, index) => checkedObject(ENDPOINT, item, `items[${index}]`, { required: ['id'], fields: ACCOUNT_FIELDS }) as Account);
}
