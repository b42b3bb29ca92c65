import { describe, expect, it } from 'vitest';
import { ApiClient, type Post } from '../../src/api/index.js';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { PostsyncError } from '../../src/errors.js';
import { useEmulator } from '../helpers/emulator.js';
import { sendJson, startLocalPeer, useCleanup, type LocalPeer } from './local-peer.js';

const emulator = useEmulator();
const track = useCleanup();

async function peerAndClient(respond: (index: number) => unknown): Promise<{ peer: LocalPeer; client: ApiClient }> {
  const peer = track(await startLocalPeer((_req, index, res) => sendJson(res, 200, respond(index))));
  return { peer, client: track(new ApiClient({ baseUrl: peer.baseUrl, apiKey: 'paging-test-key' })) };
}

const page = (items: unknown[], nextCursor: string | null) => ({ data: { items, nextCursor }, meta: { requestId: 'r' } });

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}

describe('listPosts follows nextCursor', () => {
  it('via `after`, with every filter unchanged, until nextCursor is null', async () => {
    const client = track(new ApiClient({ baseUrl: emulator().baseUrl, apiKey: DEMO_API_KEY }));
    for (let i = 0; i < 5; i += 1) {
      await client.createPost({ content: `paging ${i}`, targets: [{ socialAccountId: DEMO_ACCOUNTS.photo }], mediaIds: [] }, { idempotencyKey: `paging-${i}` });
    }
    await emulator().clearLog();
    const posts: Post[] = await all(client.listPosts({ limit: 2, status: 'draft', platform: 'photoC', q: 'paging', sort: 'oldest' }));
    expect(posts.map((p) => p.content)).toEqual(['paging 0', 'paging 1', 'paging 2', 'paging 3', 'paging 4']);
    const queries = (await emulator().requestLog()).filter((e) => e.path.endsWith('/posts')).map((e) => new URLSearchParams(e.query));
    expect(queries).toHaveLength(3);
    for (const query of queries) {
      expect(Object.fromEntries([...query].filter(([name]) => name !== 'after'))).toEqual({ limit: '2', status: 'draft', platform: 'photoC', q: 'paging', sort: 'oldest' });
      expect(query.has('before')).toBe(false);
    }
    expect(queries.map((q) => q.get('after'))).toEqual([null, posts[1]!.id, posts[3]!.id]);
  });

  it('stops on an empty page even when it carries a cursor', async () => {
    const { peer, client } = await peerAndClient((index) => (index === 0 ? page([{ id: 'a' }, { id: 'b' }], 'b') : page([], 'c')));
    expect((await all(client.listPosts({ limit: 2 }))).map((p) => p.id)).toEqual(['a', 'b']);
    expect(peer.received.map((r) => r.path)).toEqual(['/public/v1/posts?limit=2', '/public/v1/posts?limit=2&after=b']);
  });

  it('ends the listing on an empty nextCursor, as on null (no `after=` sent)', async () => {
    const { peer, client } = await peerAndClient(() => ({ data: { items: [{ id: 'a' }], nextCursor: '' }, meta: { requestId: 'r' } }));
    expect((await all(client.listPosts({ limit: 2 }))).map((p) => p.id)).toEqual(['a']);
    expect(peer.received.map((r) => r.path)).toEqual(['/public/v1/posts?limit=2']);
  });

  it('refuses to loop when the server repeats a cursor', async () => {
    const { peer, client } = await peerAndClient(() => page([{ id: 'a' }], 'same'));
    await expect(all(client.listPosts())).rejects.toBeInstanceOf(PostsyncError);
    expect(peer.received).toHaveLength(2);
  });
});

describe('accounts', () => {
  it('accepts a bare array in data, and pages through a Page', async () => {
    const bare = await peerAndClient(() => ({ data: [{ id: 'x' }], meta: { requestId: 'r' } }));
    expect(await bare.client.accounts()).toEqual([{ id: 'x' }]);
    const { peer, client } = await peerAndClient((index) => (index === 0 ? page([{ id: 'x' }], 'x') : page([{ id: 'y' }], null)));
    expect(await client.accounts()).toEqual([{ id: 'x' }, { id: 'y' }]);
    expect(peer.received.map((r) => r.path)).toEqual(['/public/v1/accounts?limit=100', '/public/v1/accounts?limit=100&after=x']);
  });
});
