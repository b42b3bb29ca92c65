import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { journalPathFor } from '../../src/state/journal.js';
import { describe, expect, it } from 'vitest';
import { recordFinalStatuses } from '../../src/apply/record-final.js';
import { livePostsById } from '../../src/plan/plan-context.js';
import type { Change, Plan } from '../../src/plan/types.js';
import { readState, sectionFor } from '../../src/state/state-file.js';
import { StateStore } from '../../src/state/state-store.js';
import type { PostRecord } from '../../src/state/types.js';
import { testdir } from '../helpers/testdir.js';
import { TARGET, livePost, looseChange, record, shape } from '../helpers/fixtures.js';
import { testSeal } from '../helpers/seal.js';
import { shapeHash } from '../../src/content/shape-hash.js';

const applied = shape({ content: 'As applied', scheduledAt: '2026-03-01T09:00:00.000Z' });
const published = (id: string, updatedAt = '2026-03-01T09:00:05.000Z') => livePost(id, applied, { status: 'published', updatedAt });
const noop = (key: string, postId: string | null): Change => looseChange({ action: 'noop', key, file: `posts/${key}.md`, postId, details: [] });
const planOf = (changes: Change[]) => ({ changes }) as unknown as Plan;
/** A record as an apply writes it now: with the shape the service answered (the applied one here). */
const observed = (postId: string, file: string): PostRecord => ({ ...record(postId, applied, file), observedHash: shapeHash(applied) });

async function storeWith(posts: Record<string, PostRecord>): Promise<{ store: StateStore; path: string }> {
  const path = join(await testdir(), 'state.json');
  const store = await StateStore.open(path, TARGET, { seal: testSeal(TARGET) });
  for (const [key, post] of Object.entries(posts)) await store.completeCreate(key, post);
  await store.checkpoint();
  return { store, path };
}

describe('recordFinalStatuses', () => {
  it('records the final status of an owned post found as applied, with the updatedAt it was seen at, and writes the state file', async () => {
    const { store, path } = await storeWith({ launch: observed('p1', 'posts/launch.md') });
    expect(await recordFinalStatuses({ plan: planOf([noop('launch', 'p1')]), live: livePostsById([published('p1')]), store })).toBe(1);
    const expected = testSeal(TARGET).sealed('posts', 'launch', { ...observed('p1', 'posts/launch.md'), final: 'published', remoteUpdatedAt: '2026-03-01T09:00:05.000Z' });
    expect(store.section.posts['launch']).toEqual(expected);
    expect(sectionFor(await readState(path), TARGET).posts['launch']).toEqual(expected);
    // Folded into the state file at once: no journal is left to replay.
    expect(existsSync(journalPathFor(path))).toBe(false);
  });

  it('records a post published without a new updatedAt (a service that does not move it on publishing)', async () => {
    const { store } = await storeWith({ launch: observed('p1', 'posts/launch.md') });
    const sameTime = published('p1', observed('p1', 'posts/launch.md').remoteUpdatedAt);
    expect(await recordFinalStatuses({ plan: planOf([noop('launch', 'p1')]), live: livePostsById([sameTime]), store })).toBe(1);
    expect(store.section.posts['launch']!.final).toBe('published');
  });

  it('records only noops of owned posts seen in a final status, each once', async () => {
    const owned = observed('p1', 'posts/launch.md');
    const cases: { name: string; change: Change; live: ReturnType<typeof published>[]; records?: Record<string, PostRecord> }[] = [
      { name: 'a change that is not a noop', change: looseChange({ ...noop('launch', 'p1'), action: 'update', reason: 'file-changed' }), live: [published('p1')] },
      { name: 'a noop without a post', change: noop('launch', null), live: [published('p1')] },
      { name: 'a post the state does not own under that key', change: noop('other', 'p1'), live: [published('p1')] },
      { name: 'a record of another post', change: noop('launch', 'p2'), live: [published('p2')] },
      { name: 'a post that was not read', change: noop('launch', 'p1'), live: [] },
      { name: 'a post still scheduled', change: noop('launch', 'p1'), live: [livePost('p1', applied)] },
      { name: 'a post recorded final as seen', change: noop('launch', 'p1'), live: [published('p1')], records: { launch: { ...owned, final: 'published', remoteUpdatedAt: '2026-03-01T09:00:05.000Z' } } },
    ];
    for (const { name, change, live, records } of cases) {
      const { store } = await storeWith(records ?? { launch: owned });
      const before = structuredClone(store.section.posts);
      expect(await recordFinalStatuses({ plan: planOf([change]), live: livePostsById(live), store }), name).toBe(0);
      expect(store.section.posts, name).toEqual(before);
    }
  });

  it('records the live shape as observed in a record from before observed shapes (the migration), once', async () => {
    const { store } = await storeWith({ launch: record('p1', applied, 'posts/launch.md'), merged: { ...record('p2', applied, 'posts/merged.md'), reread: true } });
    const live = livePostsById([livePost('p1', applied), livePost('p2', applied)]);
    const plan = planOf([noop('launch', 'p1'), noop('merged', 'p2')]);
    expect(await recordFinalStatuses({ plan, live, store })).toBe(1);
    expect(store.section.posts['launch']!.observedHash).toBe(shapeHash(applied));
    expect(store.section.posts['merged']!.observedHash).toBeUndefined();
    expect(await recordFinalStatuses({ plan, live, store })).toBe(0);
  });

  it('records again a final post whose updatedAt moved (an edit the service made after publishing)', async () => {
    const { store } = await storeWith({ launch: { ...record('p1', applied, 'posts/launch.md'), final: 'published', remoteUpdatedAt: '2026-03-01T09:00:05.000Z' } });
    expect(await recordFinalStatuses({ plan: planOf([noop('launch', 'p1')]), live: livePostsById([published('p1', '2026-03-02T00:00:00.000Z')]), store })).toBe(1);
    expect(store.section.posts['launch']!.remoteUpdatedAt).toBe('2026-03-02T00:00:00.000Z');
  });

  it('counts every post it records', async () => {
    const { store } = await storeWith({ a: record('p1', applied, 'posts/a.md'), b: record('p2', applied, 'posts/b.md') });
    expect(await recordFinalStatuses({ plan: planOf([noop('a', 'p1'), noop('b', 'p2')]), live: livePostsById([published('p1'), published('p2')]), store })).toBe(2);
  });
});
