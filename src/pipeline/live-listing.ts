import type { ApiClient } from '../api/index.js';
import { itemsOf } from '../api/paging.js';
import { readPosts } from '../api/read-post.js';
import type { Page, Post } from '../api/types.js';
import type { LivePostsById } from '../plan/types.js';
import { listFromBothEnds } from './two-ended-listing.js';

/** What deciding that a post is untouched since the last apply needs of its live post. */
export type LiveBrief = Pick<Post, 'id' | 'updatedAt'>;

/** A brief, the post's creation time (epoch ms, for the listing's order), and the page (index into the kept texts) it was listed on. */
interface Listed extends LiveBrief {
  created: number;
  page: number;
}

/**
 * Every remote post as listed, kept lean: a brief per post, and the JSON text of each page, parsed
 * again (once per page) when a post is asked for in full. A plan keeps the listing until it is
 * done, and most of its posts are untouched noops that need no more than their brief: posts kept
 * whole are many times more objects for every garbage collection to copy or mark (bench/README.md).
 * A reader that will ask for every post in full (the calendar) lists them `whole` instead: each
 * page is then kept as parsed the first time, not parsed twice.
 */
export class LiveListing implements LivePostsById {
  /** Every listed post's brief, by id. */
  readonly briefs: ReadonlyMap<string, LiveBrief>;
  readonly #listed: ReadonlyMap<string, Listed>;
  readonly #texts: readonly string[];
  readonly #parsed = new Map<number, Map<string, Post>>();

  /** `pages`: pages kept parsed (by index), whose texts are not kept. */
  constructor(listed: readonly Listed[], texts: readonly string[], pages: ReadonlyMap<number, Map<string, Post>> = new Map()) {
    const byId = new Map(listed.map((post) => [post.id, post]));
    this.#listed = byId;
    this.briefs = byId;
    this.#texts = texts;
    for (const [index, posts] of pages) this.#parsed.set(index, posts);
  }

  get size(): number {
    return this.#listed.size;
  }

  get(id: string): Post | undefined {
    const listed = this.#listed.get(id);
    return listed === undefined ? undefined : this.#page(listed.page).get(id);
  }

  /** Every listed post in full, in the listing's order (oldest first, as the two ends met). */
  all(): Post[] {
    return [...this.#listed.values()].map((listed) => this.#page(listed.page).get(listed.id)!);
  }

  #page(index: number): Map<string, Post> {
    let posts = this.#parsed.get(index);
    if (posts === undefined) {
      // The text parsed as a success envelope when it was listed: it is the same text.
      const page = (JSON.parse(this.#texts[index]!) as { data: Page<Post> }).data;
      posts = new Map(readPosts('GET /posts', itemsOf('posts', page)).map((post) => [post.id, post]));
      this.#parsed.set(index, posts);
    }
    return posts;
  }
}

/** How a listing keeps the posts it read: `lean` (briefs and page texts) or `whole` (see LiveListing). */
export type ListingKeeps = 'lean' | 'whole';

/** Every remote post (or every one in `filter.status`), listed from both ends at once (`listFromBothEnds`), kept as a LiveListing. */
export async function listLivePosts(client: Pick<ApiClient, 'listPostsPageAndText'>, filter: { status?: string } = {}, keeps: ListingKeeps = 'lean'): Promise<LiveListing> {
  const texts: string[] = [];
  const pages = new Map<number, Map<string, Post>>();
  const listed = await listFromBothEnds(async (query): Promise<Page<Listed>> => {
    const { page, text } = await client.listPostsPageAndText({ ...filter, ...query });
    const index = texts.push(keeps === 'whole' ? '' : text) - 1;
    const posts = readPosts('GET /posts', itemsOf('posts', page));
    if (keeps === 'whole') pages.set(index, new Map(posts.map((post) => [post.id, post])));
    const items = posts.map((post) => ({ id: post.id, updatedAt: post.updatedAt, created: Date.parse(post.createdAt), page: index }));
    return { items, nextCursor: page.nextCursor };
  }, (post) => post.created);
  return new LiveListing(listed, texts, pages);
}
