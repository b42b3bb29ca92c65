import { describe, expect, it } from 'vitest';
import { ApiClient, type ListPostsQuery, type Page, type Post } from '../../src/api/index.js';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { listLivePosts } from '../../src/pipeline/live-listing.js';
import { listFromBothEnds } from '../../src/pipeline/two-ended-listing.js';
import { useEmulator } from '../helpers/emulator.js';

const emulator = useEmulator();

/** Every post of a plain page reader, from both ends. */
const listPostsFromBothEnds = (client: { listPostsPage(query: ListPostsQuery): Promise<Page<Post>> }) => listFromBothEnds((query) => client.listPostsPage(query), (post) => Date.parse(post.createdAt));

describe('the live listing a plan keeps', () => {
  it('holds every post the full listing does, for the same requests', async () => {
    const client = new ApiClient({ baseUrl: emulator().baseUrl, apiKey: DEMO_API_KEY });
    try {
      expect((await listLivePosts(client)).size).toBe(0);
      for (let i = 0; i < 230; i += 1) {
        await client.createPost({ content: `post ${i}`, targets: [{ socialAccountId: DEMO_ACCOUNTS.photo }], mediaIds: [] }, { idempotencyKey: `live-${i}` });
      }
      await emulator().clearLog();
      const full = await listPostsFromBothEnds(client);
      const fullPages = (await emulator().requestLog()).length;
      await emulator().clearLog();
      const live = await listLivePosts(client);
      expect((await emulator().requestLog()).length).toBe(fullPages);

      expect(live.size).toBe(230);
      expect(live.get('00000000-0000-4000-8000-000000000000')).toBeUndefined();
      for (const post of full) {
        expect(live.briefs.get(post.id)).toMatchObject({ id: post.id, updatedAt: post.updatedAt });
        expect(live.get(post.id)).toEqual(post);
      }
      expect(live.all()).toEqual(full);
    } finally {
      await client.close();
    }
  });

  it('keeps the post of the page it was first listed on when the two ends overlap', async () => {
    const all = Array.from({ length: 5 }, (_, index) => ({ id: `p${index}`, createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, index)).toISOString(), updatedAt: `u${index}`, content: `c${index}`, targets: [], media: [] }) as unknown as Post);
    const client = {
      async listPostsPage(query: ListPostsQuery): Promise<Page<Post>> {
        const order = query.sort === 'newest' ? [...all].reverse() : all;
        const start = query.after === undefined ? 0 : order.findIndex((post) => post.id === query.after) + 1;
        const items = order.slice(start, start + 2);
        const nextCursor = start + 2 < order.length ? items.at(-1)!.id : null;
        return { items, nextCursor };
      },
    };
    const live = await listLivePosts(client);
    expect([...live.briefs.keys()].sort()).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
    for (const post of all) expect(live.get(post.id)).toEqual(post);
  });
});
