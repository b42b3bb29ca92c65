import { describe, expect, it } from 'vitest';
import type { Fixture, FixtureHistory } from '../../src/emulator/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { ACME, testFixture } from './support.js';

const KEY = { key: 'acme-full' };

function withHistory(history: FixtureHistory | FixtureHistory[], posts: Fixture['projects'][number]['posts'] = []): Fixture {
  const base = testFixture();
  return { projects: [{ ...base.projects[0]!, history, posts }, ...base.projects.slice(1)] };
}

interface Item {
  id: string;
  status: string;
  content: string;
  scheduledAt: string | null;
  createdAt: string;
  publishedAt?: string;
  targets: { socialAccountId: string; status: string; externalPostId?: string; error?: string }[];
}

async function everyPost(emulator: TestEmulator, query: string): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | null = null;
  do {
    const page = await emulator.api('GET', `/posts?limit=100&${query}${cursor ? `&after=${cursor}` : ''}`, KEY);
    expect(page.status).toBe(200);
    items.push(...(page.body.data.items as Item[]));
    cursor = page.body.data.nextCursor as string | null;
  } while (cursor);
  return items;
}

async function withEmulator<T>(fixture: Fixture, use: (emulator: TestEmulator) => Promise<T>): Promise<T> {
  const emulator = await startTestEmulator({ fixture, now: new Date('2026-06-01T00:00:00Z') });
  try {
    return await use(emulator);
  } finally {
    await emulator.close();
  }
}

describe('fixture history', () => {
  it('generates published, failed, draft and scheduled batches, in the spec orders, with the status filter', async () => {
    const fixture = withHistory(
      [
        { posts: 300, accounts: [ACME.photo, ACME.video] },
        { posts: 20, status: 'failed', accounts: [ACME.short], createdFrom: '2022-01-01T00:00:00Z' },
        { posts: 30, status: 'draft', content: 'Old idea', createdFrom: '2023-01-01T00:00:00Z', everySeconds: 3600 },
        { posts: 10, status: 'scheduled', accounts: [ACME.photo], createdFrom: '2024-01-01T00:00:00Z' },
      ],
      [{ content: 'seeded after the history' }],
    );
    await withEmulator(fixture, async (emulator) => {
      const all = await everyPost(emulator, 'sort=oldest');
      expect(all).toHaveLength(361);
      expect(all.at(-1)!.content).toBe('seeded after the history');
      const published = all.filter((post) => post.status === 'published');
      expect(published).toHaveLength(300);
      expect(published[0]).toMatchObject({
        content: 'History post 1',
        createdAt: '2020-01-01T00:00:00.000Z',
        scheduledAt: '2020-01-01T01:00:00.000Z',
        publishedAt: '2020-01-01T01:00:00.000Z',
        targets: [{ socialAccountId: ACME.photo, status: 'published', externalPostId: expect.stringMatching(/^photoC_/) }],
      });
      expect(published[1]!.createdAt).toBe('2020-01-01T00:10:00.000Z');
      expect(published[1]!.targets[0]!.socialAccountId).toBe(ACME.video);
      expect(all.filter((post) => post.status === 'failed').every((post) => post.targets[0]!.status === 'failed' && post.targets[0]!.error)).toBe(true);
      const drafts = all.filter((post) => post.status === 'draft');
      expect(drafts).toHaveLength(31);
      expect(drafts[1]).toMatchObject({ content: 'Old idea 2', scheduledAt: null, createdAt: '2023-01-01T01:00:00.000Z' });
      expect(drafts[1]!.targets.map((target) => target.socialAccountId)).toEqual([ACME.video]);
      const scheduled = all.filter((post) => post.status === 'scheduled');
      expect(scheduled.map((post) => post.scheduledAt)).toEqual(Array.from({ length: 10 }, (_, i) => new Date(Date.UTC(2035, 0, 1) + i * 600_000).toISOString()));

      // schedule_desc: scheduled posts by scheduledAt, latest first, then the unscheduled ones, newest first.
      const bySchedule = await everyPost(emulator, 'sort=schedule_desc');
      expect(bySchedule.slice(0, 10).map((post) => post.status)).toEqual(Array(10).fill('scheduled'));
      expect(bySchedule.slice(-31).every((post) => post.scheduledAt === null)).toBe(true);
      expect(bySchedule.at(-1)!.content).toBe('Old idea 1');
      expect((await everyPost(emulator, 'sort=newest&status=failed')).map((post) => post.content)).toEqual(Array.from({ length: 20 }, (_, i) => `History post ${20 - i}`));
      const one = await emulator.api('GET', `/posts/${published[42]!.id}`, KEY);
      expect(one.body.data).toMatchObject({ id: published[42]!.id, status: 'published' });
    });
  });

  it('is the same on every start, and ids are uuids that differ between batches', async () => {
    const fixture = withHistory([{ posts: 50 }, { posts: 50, status: 'draft' }]);
    const first = await withEmulator(fixture, (emulator) => everyPost(emulator, 'sort=oldest'));
    const second = await withEmulator(fixture, (emulator) => everyPost(emulator, 'sort=oldest'));
    expect(second).toEqual(first);
    const ids = first.map((post) => post.id);
    expect(new Set(ids).size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('keeps a status the emulator never gives as it is; scheduled history publishes when due', async () => {
    const fixture = withHistory([
      { posts: 5, status: 'archived' },
      { posts: 3, status: 'scheduled', accounts: [ACME.photo], scheduledFrom: '2026-06-02T00:00:00Z', everySeconds: 60 },
    ]);
    await withEmulator(fixture, async (emulator) => {
      expect((await everyPost(emulator, 'sort=oldest')).filter((post) => post.status === 'archived')).toHaveLength(5);
      expect((await emulator.advanceClock(2 * 86_400)).published).toBe(3);
      expect(await everyPost(emulator, 'sort=oldest&status=published')).toHaveLength(3);
      expect((await everyPost(emulator, 'sort=oldest')).filter((post) => post.status === 'archived')).toHaveLength(5);
    });
  });

  it('refuses accounts that are not in the project, and a bad batch, naming them', async () => {
    await expect(startEmulator({ fixture: withHistory({ posts: 1, accounts: ['99999999-9999-4999-8999-999999999999'] }) })).rejects.toThrow(
      /history\[0\]: account 99999999-9999-4999-8999-999999999999 is not in the project/,
    );
    await expect(startEmulator({ fixture: withHistory({ posts: 0, status: '' } as FixtureHistory) })).rejects.toThrow(/history/);
  });
});
