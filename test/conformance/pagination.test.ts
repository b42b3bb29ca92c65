import { beforeAll, describe, expect, it } from 'vitest';
import type { Post, PostSort } from '../../src/api/types.js';
import type { FixturePost } from '../../src/emulator/index.js';
import { expectError } from './client.js';
import { ACCOUNTS, conformanceFixture } from './fixture.js';
import { createPost, draftBody, later, uploadImage, walkPages } from './flows.js';
import { useConformance } from './harness.js';
import { expectSpecOrder } from './order.js';

/**
 * The six pagination rules of GET /posts over 120 posts: 24 seeded by the fixture with equal
 * creation times and equal schedules (so both tie-breakers are exercised), 96 created through the
 * API (36 drafts, 60 scheduled on 5 distinct instants).
 */
const T0 = Date.parse('2025-01-01T00:00:00Z');
const S1 = '2099-06-01T00:00:00Z';
const S2 = '2099-07-01T00:00:00Z';
const at = (ms: number): string => new Date(ms).toISOString();

const seeds: FixturePost[] = [
  ...Array.from({ length: 8 }, (_, i) => ({ content: `seed same-time same-schedule ${i}`, createdAt: at(T0), scheduledAt: S1 })),
  ...Array.from({ length: 6 }, (_, i) => ({ content: `seed same-schedule ${i}`, createdAt: at(T0 + (i + 1) * 60_000), scheduledAt: S1 })),
  ...Array.from({ length: 6 }, (_, i) => ({ content: `seed draft same-time ${i}`, createdAt: at(T0) })),
  ...Array.from({ length: 4 }, (_, i) => ({ content: `seed later-schedule ${i}`, createdAt: at(T0), scheduledAt: S2 })),
];
const TOTAL = 120;
const SORTS: PostSort[] = ['schedule_desc', 'schedule_asc', 'newest', 'oldest'];

const emulator = useConformance({ fixture: conformanceFixture({ acmePosts: seeds }) });
const ids = (posts: readonly Post[]): string[] => posts.map((post) => post.id);
let everything: Post[] = [];

beforeAll(async () => {
  const api = emulator().api();
  const image = await uploadImage(emulator());
  const now = await emulator().control.now();
  for (let i = 0; i < 36; i += 1) {
    const targets = i % 3 === 0 ? [{ socialAccountId: ACCOUNTS.video, options: { vidATitle: `t${i}` } }] : [];
    await createPost(api, draftBody({ content: i % 4 === 0 ? `draft ${i} with a Needle inside` : `draft ${i}`, targets }));
  }
  for (let i = 0; i < 60; i += 1) {
    const scheduledAt = later(now, 86_400 * (1 + (i % 5)));
    await createPost(api, draftBody({ content: `scheduled ${i}`, targets: [{ socialAccountId: ACCOUNTS.photo }], mediaIds: [image.id], scheduledAt }));
  }
  everything = (await walkPages(api, { limit: 100, sort: 'oldest' })).flatMap((page) => page.items);
});

describe('GET /posts pagination rules', () => {
  it('sees all 120 posts', () => {
    expect(new Set(ids(everything)).size).toBe(TOTAL);
  });

  it.each(SORTS)('rule 2 and 6 (%s): pages until a null cursor give every post once, in the spec order', async (sort) => {
    for (const limit of [7, 100]) {
      const posts = (await walkPages(emulator().api(), { limit, sort })).flatMap((page) => page.items);
      expect(posts).toHaveLength(TOTAL);
      expect(new Set(ids(posts)).size).toBe(TOTAL);
      expectSpecOrder(posts, sort);
    }
  });

  it.each(SORTS)('rule 3 (%s): a final full page may be followed by an empty page, which ends the walk', async (sort) => {
    const pages = await walkPages(emulator().api(), { limit: 20, sort });
    const full = pages.filter((page) => page.items.length === 20);
    expect(full).toHaveLength(TOTAL / 20);
    expect(pages.length).toBeLessThanOrEqual(TOTAL / 20 + 1);
    for (const page of pages.filter((candidate) => candidate.items.length === 0)) expect(page.nextCursor).toBeNull();
    expect(pages.at(-1)?.nextCursor).toBeNull();
  });

  it.each(SORTS)('rule 4 (%s): the first visible post id as `before` returns the preceding page', async (sort) => {
    const pages = (await walkPages(emulator().api(), { limit: 7, sort })).filter((page) => page.items.length > 0);
    for (let k = 1; k < pages.length; k += 1) {
      const first = pages[k]!.items[0]!.id;
      const reply = await emulator().api().get('/posts', { query: { limit: 7, sort, before: first } });
      expect(reply.status).toBe(200);
      expect(ids(reply.body.data.items), `page before page ${k + 1}`).toEqual(ids(pages[k - 1]!.items));
    }
  });

  it('rule 5: `after` and `before` together are refused', async () => {
    const [a, b] = everything;
    expectError(await emulator().api().get('/posts', { query: { after: a!.id, before: b!.id } }), 400);
  });

  it('rule 1: filters and sort kept across pages (forwards and backwards) select exactly the matching posts', async () => {
    const filters: [Record<string, string>, (post: Post) => boolean][] = [
      [{ status: 'scheduled', sort: 'schedule_asc' }, (post) => post.status === 'scheduled'],
      [{ status: 'draft', sort: 'newest' }, (post) => post.status === 'draft'],
      [{ platform: 'vidA', sort: 'oldest' }, (post) => post.targets.some((target) => target.platform === 'vidA')],
      [{ q: 'needle', sort: 'schedule_desc' }, (post) => post.content.toLowerCase().includes('needle')],
    ];
    for (const [query, matches] of filters) {
      const expected = everything.filter(matches);
      expect(expected.length, JSON.stringify(query)).toBeGreaterThan(3);
      const pages = await walkPages(emulator().api(), { ...query, limit: 3 });
      const seen = pages.flatMap((page) => page.items);
      expect(seen.every(matches), JSON.stringify(query)).toBe(true);
      expect([...ids(seen)].sort()).toEqual([...ids(expected)].sort());
      expectSpecOrder(seen, query.sort as PostSort);
      const back = await emulator().api().get('/posts', { query: { ...query, limit: 3, before: pages[1]!.items[0]!.id } });
      expect(ids(back.body.data.items)).toEqual(ids(pages[0]!.items));
    }
  });
});
