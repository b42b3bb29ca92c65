import { isJsonObject, ResponseShapeError } from './read-fields.js';
import type { Post } from './types.js';

const LISTS = ['targets', 'media'] as const;

/**
 * A post as an endpoint answered it (`field`: where it sits in the answer, e.g. `items[3]`). Its
 * `id` must be a text: everything is keyed on it. `targets` or `media` left out (or null) read as
 * none, as a service may leave out empty lists; anything else that is not a list is an error.
 * Every other field and value stays as sent.
 */
export function readPost(endpoint: string, data: unknown, field = ''): Post {
  const name = (inner: string) => (field === '' ? inner : `${field}.${inner}`);
  if (!isJsonObject(data)) throw new ResponseShapeError(endpoint, field || 'data', data, 'is not an object');
  if (typeof data.id !== 'string' || data.id === '') throw new ResponseShapeError(endpoint, name('id'), data.id === undefined ? data : data.id, data.id === undefined ? 'missing' : 'is not a text');
  let post = data;
  for (const list of LISTS) {
    const value = data[list];
    if (value === undefined || value === null) post = { ...post, [list]: [] };
    else if (!Array.isArray(value)) throw new ResponseShapeError(endpoint, name(list), value, 'is not a list');
  }
  return post as Post;
}

/** The posts of a listing page, each read by `readPost`. */
export function readPosts(endpoint: string, items: readonly unknown[]): Post[] {
  return items.map((item, index) => readPost(endpoint, item, `items[${index}]`));
}
