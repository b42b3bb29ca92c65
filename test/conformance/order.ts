import { expect } from 'vitest';
import type { Post, PostSort } from '../../src/api/types.js';

/**
 * The order GET /posts must follow, from the spec alone: `newest`/`oldest` by creation time;
 * the schedule sorts by scheduledAt with unscheduled posts last (rule 6); ties broken by creation
 * time, then id. The spec does not say in which direction ties run, so the check only demands
 * that, within one listing, every tie group runs the same way.
 */

const time = (value: string | null): number | null => (value === null ? null : Date.parse(value));

/** Compares the tie-breakers: creation time, then id. */
function tieOrder(a: Post, b: Post): number {
  return Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Splits `posts` into runs of equal `key`, keeping order. */
function groups(posts: readonly Post[], key: (post: Post) => number | null): Post[][] {
  const result: Post[][] = [];
  for (const post of posts) {
    const last = result.at(-1);
    if (last && key(last[0]!) === key(post)) last.push(post);
    else result.push([post]);
  }
  return result;
}

function expectMonotone(values: readonly (number | null)[], direction: 1 | -1, what: string): void {
  for (let i = 1; i < values.length; i += 1) {
    const step = ((values[i] as number) - (values[i - 1] as number)) * direction;
    expect(step, `${what}: position ${i} is out of order`).toBeGreaterThanOrEqual(0);
  }
}

/** Every tie group must be strictly ordered by (createdAt, id), all in one direction. */
function expectTiesBroken(tieGroups: readonly Post[][], what: string): void {
  const directions = new Set<number>();
  for (const group of tieGroups) {
    for (let i = 1; i < group.length; i += 1) {
      const sign = Math.sign(tieOrder(group[i - 1]!, group[i]!));
      expect(sign, `${what}: two posts in a tie are not told apart`).not.toBe(0);
      directions.add(sign);
    }
  }
  expect(directions.size, `${what}: ties run in both directions`).toBeLessThanOrEqual(1);
}

export function expectSpecOrder(posts: readonly Post[], sort: PostSort): void {
  if (sort === 'newest' || sort === 'oldest') {
    const created = (post: Post): number => Date.parse(post.createdAt);
    expectMonotone(posts.map(created), sort === 'oldest' ? 1 : -1, `${sort} by createdAt`);
    expectTiesBroken(groups(posts, created), `${sort} ties by id`);
    return;
  }
  const firstUnscheduled = posts.findIndex((post) => post.scheduledAt === null);
  const scheduled = firstUnscheduled < 0 ? posts : posts.slice(0, firstUnscheduled);
  const unscheduled = firstUnscheduled < 0 ? [] : posts.slice(firstUnscheduled);
  expect(unscheduled.every((post) => post.scheduledAt === null), `${sort}: unscheduled posts come last`).toBe(true);
  const scheduledTime = (post: Post): number | null => time(post.scheduledAt);
  expectMonotone(scheduled.map(scheduledTime), sort === 'schedule_asc' ? 1 : -1, `${sort} by scheduledAt`);
  expectTiesBroken([...groups(scheduled, scheduledTime), unscheduled], `${sort} ties by createdAt, id`);
}
