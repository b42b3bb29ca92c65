import type { ListPostsQuery, Page } from '../api/types.js';
import { itemsOf, nextCursorOf } from '../api/paging.js';

/** Largest page the API allows: the listing costs about ceil(posts / 100) requests. */
const PAGE_SIZE = 100;

type End = 'oldest' | 'newest';

/** One chain of pages from one end: its cursor, the posts it got, the creation time it reached. */
interface Chain<T> {
  end: End;
  cursor?: string;
  cursors: Set<string>;
  posts: T[];
  /** Creation time (epoch ms) of its last post. */
  edge?: number;
  finished: boolean;
}

/**
 * Every remote post, listed from both ends at once: one chain of pages oldest first, one newest
 * first (from the second page on), until they meet. Pages follow each other (each needs the
 * cursor of the one before), so one chain costs a round trip per page; two halve the time a large
 * project waits for its listing, for a page or two more. A project of one page costs one request.
 *
 * The chains have met once the oldest-first one has gone strictly past the creation time the
 * newest-first one has come down to: every post is then older than the first's edge or newer than
 * the second's, whatever order the API gives posts created in the same instant. Should a chain
 * see creation times out of order (an API that sorts by something else), the oldest-first chain
 * alone goes on to the end. Each post is kept once; the result is the oldest-first chain's posts,
 * then the newest-first chain's from its far end. `fetchPage` may hand out each post in any form
 * that keeps its id; `createdAtOf` tells its creation time (epoch ms).
 */
export async function listFromBothEnds<T extends { id: string }>(fetchPage: (query: ListPostsQuery) => Promise<Page<T>>, createdAtOf: (post: T) => number): Promise<T[]> {
  const oldest: Chain<T> = { end: 'oldest', cursors: new Set(), posts: [], finished: false };
  const newest: Chain<T> = { end: 'newest', cursors: new Set(), posts: [], finished: false };
  let ordered = true;
  // A chain that reached its far end has seen every post; otherwise the chains must have crossed.
  const complete = () => oldest.finished || newest.finished || (ordered && oldest.edge !== undefined && newest.edge !== undefined && oldest.edge > newest.edge);

  async function walk(chain: Chain<T>): Promise<void> {
    while (!complete() && (ordered || chain === oldest)) {
      const page = await fetchPage({ limit: PAGE_SIZE, sort: chain.end, ...(chain.cursor === undefined ? {} : { after: chain.cursor }) });
      for (const post of itemsOf('posts', page)) {
        const createdAt = createdAtOf(post);
        const inOrder = chain.edge === undefined || (chain === oldest ? createdAt >= chain.edge : createdAt <= chain.edge);
        if (!inOrder) ordered = false;
        chain.edge = createdAt;
        chain.posts.push(post);
      }
      const next = nextCursorOf('posts', page, chain.cursors);
      if (next === undefined) {
        chain.finished = true;
        return;
      }
      chain.cursor = next;
      // The other end is started once a second page is known to exist: a small project costs one request.
      if (chain === oldest && newestWalk === undefined) {
        newestWalk = walk(newest);
        // Awaited below; should the oldest-first chain fail first, its error is the one reported.
        newestWalk.catch(() => undefined);
      }
    }
  }

  let newestWalk: Promise<void> | undefined;
  await walk(oldest);
  await newestWalk;
  // Found out of order after the chains seemed to meet: the oldest-first one lists the rest.
  if (!complete()) await walk(oldest);
  const byId = new Map<string, T>();
  for (const post of [...oldest.posts, ...newest.posts.reverse()]) if (!byId.has(post.id)) byId.set(post.id, post);
  return [...byId.values()];
}
