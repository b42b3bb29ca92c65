import { PostsyncError } from '../errors.js';
import type { Page } from './types.js';

/**
 * Every item of a cursor-paged listing. `fetchPage(cursor)` must keep all other filters unchanged
 * (the caller closes over them). Stops when `nextCursor` is null (or absent) and also on an empty
 * page, since a final full page may be followed by an empty one. A cursor seen twice would loop
 * forever, so it is an error.
 */
export async function* allItems<T>(what: string, fetchPage: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    if (!Array.isArray(page?.items)) {
      throw new PostsyncError(`Listing ${what}: the API answered a page without an items array.`, {
        hint: 'Check that api.url / POSTSYNC_API_URL points at the Public Posting API.',
      });
    }
    yield* page.items;
    const next = page.nextCursor;
    if (next === null || next === undefined || page.items.length === 0) return;
    if (seen.has(next)) {
      throw new PostsyncError(`Listing ${what}: the API returned the cursor "${next}" twice; stopping instead of looping forever.`);
    }
    seen.add(next);
    cursor = next;
  }
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
