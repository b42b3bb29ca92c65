import { PostsyncError } from '../errors.js';
import type { Page } from './types.js';

/**
 * Every item of a cursor-paged listing. `fetchPage(cursor)` must keep all other filters unchanged
 * (the caller closes over them). Stops when `nextCursor` is null, absent or empty (`""`), and also
 * on an empty page, since a final full page may be followed by an empty one. A cursor seen twice would loop
 * forever, so it is an error.
 */
export async function* allItems<T>(what: string, fetchPage: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* itemsOf(what, page);
    cursor = nextCursorOf(what, page, seen);
    if (cursor === undefined) return;
  }
}

/** A page's items; a page without an items array is an error. */
export function itemsOf<T>(what: string, page: Page<T>): T[] {
  if (!Array.isArray(page?.items)) {
    throw new PostsyncError(`Listing ${what}: the API answered a page without an items array.`, {
      hint: 'Check that api.url / POSTSYNC_API_URL points at the Public Posting API.',
    });
  }
  return page.items;
}

/**
 * The cursor of the page after `page` (noted in `seen`), or undefined at the end: `nextCursor`
 * null, absent or `""`, or an empty page. An empty cursor names no post to continue after, so it
 * means the end, like null (the spec only says to stop on null). A cursor seen before is an error.
 */
export function nextCursorOf<T>(what: string, page: Page<T>, seen: Set<string>): string | undefined {
  const next = page.nextCursor;
  if (next === null || next === undefined || next === '' || page.items.length === 0) return undefined;
  if (seen.has(next)) {
    throw new PostsyncError(`Listing ${what}: the API returned the cursor "${next}" twice; stopping instead of looping forever.`);
  }
  seen.add(next);
  return next;
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
