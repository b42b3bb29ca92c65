import { ApiError, type ApiClient } from '../api/index.js';
import type { Post } from '../api/types.js';
import type { LivePostsById } from '../plan/types.js';
import type { PostRecord } from '../state/types.js';
import { listLivePosts, type LiveBrief, type LiveListing } from './live-listing.js';

/** Statuses listed whole by a scoped read: every post postsync can still change is in one of them. */
const LISTED_STATUSES = ['draft', 'scheduled'] as const;

/** GET /posts/{id} at a time while reading owned posts that were not listed. */
const BY_ID_CONCURRENCY = 8;

/**
 * The remote posts a plan can need, read without the project's history: the drafts and the
 * scheduled posts (one listing each, with the spec's `status` filter), then, one by one by id,
 * the owned posts in neither listing (published since, in a status postsync does not know, or
 * deleted: a 404). Owned posts recorded `final` are not read: their brief is their record, unless
 * `readFinal` asks for them (their file changed, so the planner needs them in full).
 *
 * Choice: the `status` filter rather than `sort=schedule_desc` cut at the oldest owned schedule:
 * an overdue owned schedule would pull the whole history after it into the listing.
 */
export class ScopedListing implements LivePostsById {
  readonly briefs: ReadonlyMap<string, LiveBrief>;
  readonly #listings: readonly LiveListing[];
  readonly #byId: ReadonlyMap<string, Post>;
  readonly #finalBriefs: readonly LiveBrief[];

  constructor(listings: readonly LiveListing[], byId: ReadonlyMap<string, Post>, finalBriefs: readonly LiveBrief[]) {
    const briefs = new Map<string, LiveBrief>(finalBriefs.map((brief) => [brief.id, brief]));
    for (const listing of listings) for (const [id, brief] of listing.briefs) briefs.set(id, brief);
    for (const [id, post] of byId) briefs.set(id, post);
    this.briefs = briefs;
    this.#listings = listings;
    this.#byId = byId;
    this.#finalBriefs = finalBriefs;
  }

  /** This read with `posts` read by id as well (owned posts recorded final, needed in full after all). */
  withPosts(posts: ReadonlyMap<string, Post>): ScopedListing {
    return new ScopedListing(this.#listings, new Map([...this.#byId, ...posts]), this.#finalBriefs);
  }

  get(id: string): Post | undefined {
    for (const listing of this.#listings) {
      const post = listing.get(id);
      if (post !== undefined) return post;
    }
    return this.#byId.get(id);
  }

  /** Every post read, listed ones first. */
  all(): Post[] {
    const listed = this.#listings.flatMap((listing) => listing.all());
    const seen = new Set(listed.map((post) => post.id));
    return [...listed, ...[...this.#byId.values()].filter((post) => !seen.has(post.id))];
  }
}

/** The listings of a scoped read, started before the state is known. */
export function listOpenPosts(client: Pick<ApiClient, 'listPostsPage'>): Promise<LiveListing[]> {
  return Promise.all(LISTED_STATUSES.map((status) => listLivePosts(client, { status })));
}

/**
 * Completes a scoped read: reads by id every owned post that the listings did not hold, except
 * those recorded final that `readFinal` does not ask for.
 */
export async function completeScopedListing(input: {
  client: Pick<ApiClient, 'getPost'>;
  listings: readonly LiveListing[];
  /** The owned posts' records, by key. */
  records: Readonly<Record<string, PostRecord>>;
  readFinal: (key: string, record: PostRecord) => boolean;
}): Promise<ScopedListing> {
  const listed = (id: string) => input.listings.some((listing) => listing.briefs.has(id));
  const finalBriefs: LiveBrief[] = [];
  const toRead: string[] = [];
  for (const [key, record] of Object.entries(input.records)) {
    if (listed(record.postId)) continue;
    if (record.final !== undefined && record.reread !== true && !input.readFinal(key, record)) finalBriefs.push({ id: record.postId, updatedAt: record.remoteUpdatedAt });
    else toRead.push(record.postId);
  }
  return new ScopedListing(input.listings, await readPosts(input.client, toRead), finalBriefs);
}

/**
 * `listing` with the owned posts recorded final that `readFinal` asks for read by id, when it does
 * not hold them in full yet (a session that read the remote once, whose files changed since).
 */
export async function readFinalPosts(input: {
  client: Pick<ApiClient, 'getPost'>;
  listing: ScopedListing;
  records: Readonly<Record<string, PostRecord>>;
  readFinal: (key: string, record: PostRecord) => boolean;
}): Promise<ScopedListing> {
  const { listing } = input;
  const toRead = Object.entries(input.records).flatMap(([key, record]) =>
    record.final !== undefined && listing.briefs.has(record.postId) && listing.get(record.postId) === undefined && input.readFinal(key, record) ? [record.postId] : [],
  );
  return toRead.length === 0 ? listing : listing.withPosts(await readPosts(input.client, toRead));
}

/** The posts with these ids, read by id a few at a time; a deleted one (404) is left out. */
async function readPosts(client: Pick<ApiClient, 'getPost'>, ids: readonly string[]): Promise<Map<string, Post>> {
  const byId = new Map<string, Post>();
  const queue = [...new Set(ids)];
  async function worker(): Promise<void> {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const post = await readPost(client, id);
      if (post !== undefined) byId.set(id, post);
    }
  }
  await Promise.all(Array.from({ length: Math.min(BY_ID_CONCURRENCY, queue.length) }, worker));
  return byId;
}

/** The post, or undefined when the remote answers 404 (deleted). */
async function readPost(client: Pick<ApiClient, 'getPost'>, id: string): Promise<Post | undefined> {
  try {
    return await client.getPost(id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}
