import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { ACME, mp4Bytes, pngBytes, testFixture, uploadMedia } from './support.js';

const START = new Date('2030-03-01T08:00:00Z');
const emulator = useEmulator({ fixture: testFixture(), now: START });
const at = (minutes: number): string => new Date(START.getTime() + minutes * 60_000).toISOString();

async function schedule(targets: object[], scheduledAt: string, mediaIds: string[]): Promise<string> {
  const created = await emulator().api('POST', '/posts', { key: 'acme-full', body: { content: 'Launch day', targets, mediaIds, scheduledAt } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data.id;
}

const getPost = async (id: string) => (await emulator().api('GET', `/posts/${id}`, { key: 'acme-read' })).body.data;

describe('publishing on the emulator clock', () => {
  it('publishes due posts: published, partially_published, publishing (throttled) and failed', async () => {
    const image = await uploadMedia(emulator(), pngBytes(100, 100), { kind: 'image', contentType: 'image/png' }, 'acme-full');
    const video = await uploadMedia(emulator(), mp4Bytes({ durationSeconds: 30 }), { kind: 'video', contentType: 'video/mp4' }, 'acme-full');
    const allGood = await schedule([{ socialAccountId: ACME.photo }], at(10), [image]);
    const mixed = await schedule([{ socialAccountId: ACME.photo }, { socialAccountId: ACME.failing }], at(20), [image]);
    const throttled = await schedule([{ socialAccountId: ACME.throttled }], at(30), [image]);
    const failed = await schedule([{ socialAccountId: ACME.failing }], at(40), [image]);
    const videoPost = await schedule([{ socialAccountId: ACME.video, options: { vidATitle: 'Launch' } }, { socialAccountId: ACME.short }], at(50), [video]);
    const later = await schedule([{ socialAccountId: ACME.photo }], at(600), [image]);

    expect((await getPost(allGood)).status).toBe('scheduled');
    const moved = await emulator().advanceClock(60 * 60);
    expect(moved.published).toBeGreaterThanOrEqual(5);

    const good = await getPost(allGood);
    expect(good).toMatchObject({ status: 'published', publishedAt: at(10) });
    expect(good.targets[0]).toMatchObject({ status: 'published', publishedAt: at(10), externalPostId: expect.stringMatching(/^photoC_[0-9a-f]{16}$/) });

    const partial = await getPost(mixed);
    expect(partial.status).toBe('partially_published');
    expect(partial.targets[1]).toMatchObject({ status: 'failed', error: expect.stringContaining('rejected') });
    expect(partial.targets[1].externalPostId).toBeUndefined();

    expect((await getPost(failed)).status).toBe('failed');
    const videos = await getPost(videoPost);
    expect(videos.status).toBe('published');
    expect(videos.targets.map((t: any) => t.options)).toEqual([
      { vidATitle: 'Launch', vidAPrivacy: 'private' },
      { shortBMode: 'direct', shortBPrivacy: 'PUBLIC_TO_EVERYONE' },
    ]);
    expect((await getPost(later)).status).toBe('scheduled');

    // The throttled target retried at 08:45 — already in the past, so the same advance published it.
    const retried = await getPost(throttled);
    expect(retried).toMatchObject({ status: 'published', publishedAt: at(45) });
    expect(retried.targets[0].waitReason).toBeUndefined();
    expect(retried.targets[0].nextAttemptAt).toBeUndefined();
  });

  it('keeps throttled posts waiting until their retry time', async () => {
    const image = await uploadMedia(emulator(), pngBytes(10, 10), { kind: 'image', contentType: 'image/png' }, 'acme-full');
    const now = Date.parse((await emulator().advanceClock(0)).now);
    const id = await schedule([{ socialAccountId: ACME.throttled }, { socialAccountId: ACME.photo }], new Date(now + 60_000).toISOString(), [image]);
    await emulator().advanceClock(120);
    const waiting = await getPost(id);
    expect(waiting.status).toBe('publishing');
    expect(waiting.targets.map((t: any) => t.status)).toEqual(['waiting', 'published']);
    expect(waiting.targets[0]).toMatchObject({ waitReason: expect.stringContaining('rate limit'), nextAttemptAt: new Date(now + 60_000 + 15 * 60_000).toISOString() });
    expect(waiting.publishedAt).toBeUndefined();
    await emulator().advanceClock(15 * 60);
    const done = await getPost(id);
    expect(done.status).toBe('published');
    expect(done.targets.map((t: any) => t.status)).toEqual(['published', 'published']);
    expect(done.publishedAt).toBe(done.targets[0].publishedAt);
  });

  it('lists posts by status after publishing', async () => {
    const published = await emulator().api('GET', '/posts?status=published&limit=100', { key: 'acme-read' });
    expect(published.body.data.items.length).toBeGreaterThanOrEqual(3);
    expect(published.body.data.items.every((p: any) => p.status === 'published')).toBe(true);
    const failed = await emulator().api('GET', '/posts?status=failed', { key: 'acme-read' });
    expect(failed.body.data.items).toHaveLength(1);
  });
});

describe('GET /analytics/posts', () => {
  it('returns one item per published post/account pair, with stable metrics', async () => {
    const all = await emulator().api('GET', '/analytics/posts?limit=100', { key: 'acme-read' });
    expect(all.status).toBe(200);
    const items = all.body.data.items;
    const published = (await emulator().api('GET', '/posts?limit=100', { key: 'acme-read' })).body.data.items.flatMap((p: any) =>
      p.targets.filter((t: any) => t.status === 'published').map((t: any) => `${p.id}/${t.socialAccountId}`),
    );
    expect(items.map((i: any) => `${i.postId}/${i.socialAccountId}`).sort()).toEqual(published.sort());
    const video = items.find((i: any) => i.platform === 'vidA');
    expect(video).toMatchObject({ externalPostId: expect.stringMatching(/^vidA_/), impressions: expect.any(Number), reach: expect.any(Number), videoViews: expect.any(Number) });
    expect(items.find((i: any) => i.platform === 'photoC').videoViews).toBeUndefined();
    const again = await emulator().api('GET', '/analytics/posts?limit=100', { key: 'acme-read' });
    expect(again.body.data.items).toEqual(items);
    const sorted = [...items].sort((a: any, b: any) => (a.publishedAt < b.publishedAt ? 1 : a.publishedAt > b.publishedAt ? -1 : 0));
    expect(items.map((i: any) => i.publishedAt)).toEqual(sorted.map((i: any) => i.publishedAt));
  });

  it('filters by date range, account and platform, and pages with an opaque cursor', async () => {
    const get = async (query: string) => (await emulator().api('GET', `/analytics/posts?${query}`, { key: 'acme-read' })).body;
    const all = (await get('limit=100')).data.items;
    const range = (await get(`from=${encodeURIComponent(at(10))}&to=${encodeURIComponent(at(45))}&limit=100`)).data.items;
    expect(range.length).toBeGreaterThan(0);
    expect(range.every((i: any) => i.publishedAt >= at(10) && i.publishedAt < at(45))).toBe(true);
    expect((await get(`accountId=${ACME.photo}&limit=100`)).data.items.every((i: any) => i.socialAccountId === ACME.photo)).toBe(true);
    expect((await get('platform=shortB&limit=100')).data.items).toHaveLength(all.filter((i: any) => i.platform === 'shortB').length);

    const paged: any[] = [];
    let cursor: string | null = null;
    do {
      const body = await get(`platform=photoC&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      paged.push(...body.data.items);
      cursor = body.data.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all.filter((i: any) => i.platform === 'photoC'));

    const first = await get('platform=photoC&limit=1');
    const changed = await emulator().api('GET', `/analytics/posts?platform=vidA&limit=1&cursor=${first.data.nextCursor}`, { key: 'acme-read' });
    expect(changed.status).toBe(400);
    expect(changed.body.error.message[0]).toContain('other filters');
    const bad = await emulator().api('GET', '/analytics/posts?from=yesterday&accountId=x&platform=&limit=0&cursor=zzz&after=1', { key: 'acme-read' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toHaveLength(6);
  });
});
