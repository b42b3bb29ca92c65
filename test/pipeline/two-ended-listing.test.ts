import { describe, expect, it } from 'vitest';
import { ApiClient, type ListPostsQuery, type Page, type Post } from '../../src/api/index.js';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { PostsyncError } from '../../src/errors.js';
import { listFromBothEnds } from '../../src/pipeline/two-ended-listing.js';
import { useEmulator } from '../helpers/emulator.js';

const emulator = useEmulator();

/** Every post of a plain page reader, from both ends. */
const listPostsFromBothEnds = (client: { listPostsPage(query: ListPostsQuery): Promise<Page<Post>> }) => listFromBothEnds((query) => client.listPostsPage(query), (post) => Date.parse(post.createdAt));

/** A listing over fixed orders: `sort=oldest` walks `oldest`, `sort=newest` walks `newest`; cursors are post ids. */
function fakeClient(oldest: Post[], newest: Post[] = [...oldest].reverse(), options: { limit?: number } = {}) {
  const queries: ListPostsQuery[] = [];
  return {
    queries,
    async listPostsPage(query: ListPostsQuery): Promise<Page<Post>> {
      queries.push(query);
      await new Promise((resolve) => setImmediate(resolve));
      const order = query.sort === 'newest' ? newest : oldest;
      const start = query.after === undefined ? 0 : order.findIndex((post) => post.id === query.after) + 1;
      const items = order.slice(start, start + (options.limit ?? query.limit ?? 100));
      const more = start + items.length < order.length;
      return { items, nextCursor: more ? items.at(-1)!.id : null };
    },
  };
}

const posts = (count: number, createdAt: (index: number) => string) =>
  Array.from({ length: count }, (_, index) => ({ id: `p${String(index).padStart(4, '0')}`, createdAt: createdAt(index) }) as Post);
const ids = (list: Post[]) => list.map((post) => post.id).sort();
const at = (second: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, second)).toISOString();

describe('listing every post from both ends at once', () => {
  it('finds each post once against the emulator, for about one page more than a single chain', async () => {
    const client = new ApiClient({ baseUrl: emulator().baseUrl, apiKey: DEMO_API_KEY });
    try {
      expect(await listPostsFromBothEnds(client)).toEqual([]);
      for (let i = 0; i < 250; i += 1) {
        await client.createPost({ content: `post ${i}`, targets: [{ socialAccountId: DEMO_ACCOUNTS.photo }], mediaIds: [] }, { idempotencyKey: `both-ends-${i}` });
      }
      await emulator().clearLog();
      const listed = await listPostsFromBothEnds(client);
      expect(listed.map((post) => post.content).sort()).toEqual(Array.from({ length: 250 }, (_, i) => `post ${i}`).sort());
      const pages = (await emulator().requestLog()).filter((entry) => entry.path.endsWith('/posts'));
      expect(pages.length).toBeGreaterThanOrEqual(3);
      expect(pages.length).toBeLessThanOrEqual(5);
      expect(listed.map((post) => post.content).slice(0, 3)).toEqual(['post 0', 'post 1', 'post 2']);
    } finally {
      await client.close();
    }
  });

  it('misses nothing when many posts share a creation time and the two ends break the tie differently', async () => {
    const all = posts(450, (index) => at(Math.floor(index / 150)));
    // Newest first, but within each second in the same id order as oldest first.
    const newest = [...all].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? 1 : -1));
    const client = fakeClient(all, newest, { limit: 40 });
    expect(ids(await listPostsFromBothEnds(client))).toEqual(ids(all));
  });

  it('stops where the chains cross, and lists everything from the oldest end when the API sorts otherwise', async () => {
    const all = posts(1000, (index) => at(index));
    const crossing = fakeClient(all);
    expect(ids(await listPostsFromBothEnds(crossing))).toEqual(ids(all));
    expect(crossing.queries.length).toBeLessThanOrEqual(12);

    const shuffled = [...all].sort((a, b) => (a.id.slice(-1) < b.id.slice(-1) ? -1 : 1));
    const unsorted = fakeClient(shuffled, [...shuffled].reverse());
    expect(ids(await listPostsFromBothEnds(unsorted))).toEqual(ids(all));
  });

  it('stops with an error on a cursor seen twice, and on a page without items', async () => {
    const looping = { listPostsPage: async (): Promise<Page<Post>> => ({ items: [{ id: 'x', createdAt: at(1) } as Post], nextCursor: 'same' }) };
    await expect(listPostsFromBothEnds(looping)).rejects.toThrow(PostsyncError);
    await expect(listPostsFromBothEnds(looping)).rejects.toThrow(/cursor "same" twice/);
    const broken = { listPostsPage: async () => ({ nextCursor: null }) as unknown as Page<Post> };
    await expect(listPostsFromBothEnds(broken)).rejects.toThrow(/without an items array/);
  });
});
