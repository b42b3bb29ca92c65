import { describe, expect, it } from 'vitest';
import type { Fixture, FixturePost } from '../../src/emulator/index.js';
import { useEmulator } from '../helpers/emulator.js';
import { ACME, testFixture } from './support.js';

const COUNT = 1200;
const idOf = (i: number): string => `00000000-0000-4000-8000-${String((i * 7919) % 1_000_003).padStart(12, '0')}`;

/** 1,200 seed posts (more than one index chunk): createdAt ties in threes, scheduledAt ties in fives, every fourth one a draft. */
function seeds(): FixturePost[] {
  const accounts = [ACME.photo, ACME.video, ACME.short];
  return Array.from({ length: COUNT }, (_, i) => ({
    id: idOf(i),
    content: i % 10 === 0 ? `post ${i} with the Needle` : `post ${i}`,
    createdAt: new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 3) * 1000).toISOString(),
    scheduledAt: i % 4 === 0 ? null : new Date(Date.UTC(2031, 0, 1) + Math.floor(((i * 37) % COUNT) / 5) * 60_000).toISOString(),
    targets: [{ socialAccountId: accounts[i % 3] as string, ...(i % 3 === 1 ? { options: { vidATitle: 't' } } : {}) }],
  }));
}

function fixture(): Fixture {
  const base = testFixture();
  const acme = base.projects[0]!;
  return { projects: [{ ...acme, posts: seeds() }, ...base.projects.slice(1)] };
}

interface Row {
  id: string;
  created: number;
  sched: number | null;
  status: string;
  content: string;
  platform: string;
}

const cmp = (a: number | string, b: number | string): number => (a < b ? -1 : a > b ? 1 : 0);
const byCreation = (a: Row, b: Row): number => cmp(a.created, b.created) || cmp(a.id, b.id);

/** The spec's orders, written independently of the emulator's indexes. */
function expectedOrder(rows: Row[], sort: string): string[] {
  const scheduled = rows.filter((r) => r.sched !== null);
  const unscheduled = rows.filter((r) => r.sched === null);
  const bySchedule = (a: Row, b: Row): number => cmp(a.sched as number, b.sched as number) || byCreation(a, b);
  let order: Row[];
  if (sort === 'oldest') order = [...rows].sort(byCreation);
  else if (sort === 'newest') order = [...rows].sort(byCreation).reverse();
  else if (sort === 'schedule_asc') order = [...scheduled.sort(bySchedule), ...unscheduled.sort(byCreation)];
  else order = [...scheduled.sort(bySchedule).reverse(), ...unscheduled.sort(byCreation).reverse()];
  return order.map((r) => r.id);
}

const emulator = useEmulator({ fixture: fixture() });

const rows: Row[] = seeds().map((p, i) => ({
  id: p.id as string,
  created: Date.parse(p.createdAt as string),
  sched: p.scheduledAt ? Date.parse(p.scheduledAt) : null,
  status: p.scheduledAt ? 'scheduled' : 'draft',
  content: p.content,
  platform: ['photoC', 'vidA', 'shortB'][i % 3] as string,
}));

async function page(query: string): Promise<{ ids: string[]; nextCursor: string | null }> {
  const response = await emulator().api('GET', `/posts?${query}`, { key: 'acme-read' });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { ids: response.body.data.items.map((p: any) => p.id), nextCursor: response.body.data.nextCursor };
}

async function walk(query: string): Promise<{ ids: string[]; pages: number; lastPageEmpty: boolean }> {
  const ids: string[] = [];
  let pages = 0;
  let cursor: string | null = null;
  let lastPageEmpty = false;
  do {
    const result = await page(`${query}${cursor ? `&after=${cursor}` : ''}`);
    ids.push(...result.ids);
    lastPageEmpty = result.ids.length === 0;
    cursor = result.nextCursor;
    pages++;
  } while (cursor !== null && pages < 100);
  return { ids, pages, lastPageEmpty };
}

describe('GET /posts pagination (1,200 posts, ties)', () => {
  it.each(['schedule_desc', 'schedule_asc', 'newest', 'oldest'])('walks every post once in %s order (ties by creation time, then id)', async (sort) => {
    const { ids } = await walk(`sort=${sort}&limit=50`);
    expect(ids).toEqual(expectedOrder(rows, sort));
  });

  it('defaults to schedule_desc and 50 items, unscheduled posts last', async () => {
    const first = await page('');
    expect(first.ids).toEqual(expectedOrder(rows, 'schedule_desc').slice(0, 50));
    const all = await walk('sort=schedule_asc&limit=100');
    const firstDraft = all.ids.findIndex((id) => rows.find((r) => r.id === id)?.sched === null);
    expect(all.ids.slice(firstDraft).every((id) => rows.find((r) => r.id === id)?.sched === null)).toBe(true);
  });

  it('may follow a final full page with an empty page (rule 3), and stops on a null cursor', async () => {
    const { ids, pages, lastPageEmpty } = await walk('sort=oldest&limit=20');
    expect(ids).toHaveLength(COUNT);
    expect(pages).toBe(COUNT / 20 + 1);
    expect(lastPageEmpty).toBe(true);
  });

  it('returns the preceding page for `before` (rule 4)', async () => {
    const order = expectedOrder(rows, 'schedule_desc');
    const third = await page(`limit=25&after=${order[49]}`);
    expect(third.ids).toEqual(order.slice(50, 75));
    const second = await page(`limit=25&before=${third.ids[0]}`);
    expect(second.ids).toEqual(order.slice(25, 50));
    expect(second.nextCursor).toBe(order[49]);
    const partial = await page(`limit=25&before=${order[10]}`);
    expect(partial.ids).toEqual(order.slice(0, 10));
    const none = await page(`limit=25&before=${order[0]}`);
    expect(none).toEqual({ ids: [], nextCursor: null });
  });

  it('keeps filters across pages: status, platform and q (case-insensitive)', async () => {
    const filtered = (predicate: (r: Row) => boolean, sort: string) => expectedOrder(rows.filter(predicate), sort);
    expect((await walk('status=draft&sort=newest&limit=7')).ids).toEqual(filtered((r) => r.status === 'draft', 'newest'));
    expect((await walk('platform=vidA&sort=schedule_asc&limit=9')).ids).toEqual(filtered((r) => r.platform === 'vidA', 'schedule_asc'));
    expect((await walk('q=needle&limit=4')).ids).toEqual(filtered((r) => r.content.includes('Needle'), 'schedule_desc'));
    expect((await walk('q=needle&status=draft&platform=photoC&limit=3')).ids).toEqual(
      filtered((r) => r.content.includes('Needle') && r.status === 'draft' && r.platform === 'photoC', 'schedule_desc'),
    );
  });

  it('continues after a cursor whose post was deleted meanwhile', async () => {
    const order = expectedOrder(rows, 'newest');
    const firstPage = await page('sort=newest&limit=10');
    const last = firstPage.ids[9] as string;
    const removable = rows.find((r) => r.id === last)!;
    expect((await emulator().api('DELETE', `/posts/${last}`, { key: 'acme-full' })).status).toBe(200);
    const next = await page(`sort=newest&limit=10&after=${last}`);
    expect(next.ids).toEqual(order.slice(10, 20));
    rows.splice(rows.indexOf(removable), 1);
  });

  it('refuses invalid paging: after with before, bad limit, bad q, unknown cursor, unknown parameter', async () => {
    const order = expectedOrder(rows, 'newest');
    const bad = async (query: string) => {
      const response = await emulator().api('GET', `/posts?${query}`, { key: 'acme-read' });
      expect(response.status, query).toBe(400);
      expect(response.body.error.code).toBe('validation_failed');
      return response.body.error.message as string[];
    };
    expect(await bad(`after=${order[3]}&before=${order[5]}`)).toEqual(['send either after or before, never both']);
    expect(await bad('limit=0')).toEqual(['limit must be an integer from 1 to 100']);
    expect(await bad('limit=101')).toEqual(['limit must be an integer from 1 to 100']);
    expect(await bad('limit=abc')).toEqual(['limit must be an integer from 1 to 100']);
    expect(await bad('q=')).toEqual(['q must be 1 to 200 characters']);
    expect(await bad(`q=${'a'.repeat(201)}`)).toEqual(['q must be 1 to 200 characters']);
    expect((await page(`q=${'a'.repeat(200)}`)).ids).toEqual([]);
    expect(await bad('sort=random&status=gone&platform=')).toEqual([
      'sort must be one of schedule_desc, schedule_asc, newest, oldest',
      'status must be one of draft, scheduled, publishing, published, partially_published, failed',
      'platform must be 1 to 100 characters',
    ]);
    expect(await bad('after=12345')).toEqual(['after must be a post id (uuid)']);
    expect(await bad('before=99999999-9999-4999-8999-999999999999')).toEqual(['before 99999999-9999-4999-8999-999999999999 is not a post of this project']);
    expect(await bad('cursor=abc&limit=5&limit=6')).toEqual([
      'unknown query parameter cursor (allowed: limit, status, platform, q, sort, after, before)',
      'query parameter limit is repeated',
    ]);
    expect(await bad('limit=0&q=&after=x&before=y')).toHaveLength(5);
  });
});
