import type { ApiClient } from '../api/index.js';
import { itemsOf } from '../api/paging.js';
import { readPosts } from '../api/read-post.js';
import type { Post } from '../api/types.js';
import type { LivePostsById } from '../plan/types.js';
import { listFromBothEnds } from './two-ended-listing.js';

/** What deciding that a post is untouched since the last apply needs of its live post. */
export type LiveBrief = Pick<Post, 'id' | 'updatedAt'>;

/** Every remote post as listed, by id: each post as read from the page it was first listed on. */
export class LiveListing implements LivePostsById {
  /** Every listed post (a post is its own brief), by id. */
  readonly briefs: ReadonlyMap<string, LiveBrief>;
  readonly #posts: ReadonlyMap<string, Post>;

  constructor(posts: readonly Post[]) {
    const byId = new Map(posts.map((post) => [post.id, post]));
    this.#posts = byId;
    this.briefs = byId;
  }

  get size(): number {
    return this.#posts.size;
  }

  get(id: string): Post | undefined {
    return this.#posts.get(id);
  }

  /** Every listed post, in the listing's order (oldest first, as the two ends met). */
  all(): Post[] {
    return [...this.#posts.values()];
  }
}

/** Every remote post (or every one in `filter.status`), listed from both ends at once (`listFromBothEnds`). */
export async function listLivePosts(client: Pick<ApiClient, 'listPostsPage'>, filter: { status?: string } = {}): Promise<LiveListing> {
  const posts = await listFromBothEnds(async (query) => {
    const page = await client.listPostsPage({ ...filter, ...query });
    return { items: readPosts('GET /posts', itemsOf('posts', page)), nextCursor: page.nextCursor };
  }, (post) => Date.parse(post.createdAt));
  return new LiveListing(posts);
}
