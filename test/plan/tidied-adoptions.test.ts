import { describe, expect, it } from 'vitest';
import type { Post } from '../../src/api/types.js';
import type { PostShape } from '../../src/content/types.js';
import { matchTidiedAdoptions } from '../../src/plan/tidied-adoptions.js';
import { desired, livePost, shape } from '../helpers/fixtures.js';

/** The second pass of adoption on its own: each orphan's shape as the planner would read it. */
const file = shape({ content: 'Line one:  \nCafe\u0301', scheduledAt: '2026-04-01T09:00:30.000Z' });
const kept = shape({ content: 'Line one:\nCafé', scheduledAt: '2026-04-01T09:00:00.000Z' });
const later = shape({ ...file, scheduledAt: '2026-04-02T09:00:00.000Z' });

function match(files: ReturnType<typeof desired>[], orphans: [Post, PostShape][]) {
  const shapes = new Map(orphans);
  return matchTidiedAdoptions(files, orphans.map(([live]) => live), { shapeOf: (live) => shapes.get(live as Post)! });
}

const ids = (map: ReadonlyMap<string, { id: string }>) => [...map].map(([key, live]) => [key, live.id]);

describe('matchTidiedAdoptions', () => {
  it('pairs files of one tidied form in key order with its orphans in the order given (oldest first), whatever order the files come in', () => {
    const older = livePost('p-old', kept);
    const newer = livePost('p-new', kept);
    const found = match([desired('b', file), desired('a', file)], [[older, kept], [newer, kept]]);
    expect(ids(found.adopted).sort()).toEqual([['a', 'p-old'], ['b', 'p-new']]);
    expect(found.held.size).toBe(0);
  });

  it('names as the candidates of an ambiguous hold only the orphans of the tidied form, not those that share the text alone', () => {
    const same = livePost('p-same', kept);
    const textOnly = livePost('p-text', later);
    const found = match([desired('a', file), desired('b', file)], [[same, kept], [textOnly, later]]);
    expect(found.adopted.size).toBe(0);
    expect([...found.held].map(([key, held]) => [key, held.reason, held.candidates.map((live) => live.id)])).toEqual([
      ['a', 'adopt-ambiguous', ['p-same']],
      ['b', 'adopt-ambiguous', ['p-same']],
    ]);
  });

  it('never holds a file for an orphan another file of the same text adopted', () => {
    const taken = livePost('p1', kept);
    const found = match([desired('a', file), desired('b', later)], [[taken, kept]]);
    expect(ids(found.adopted)).toEqual([['a', 'p1']]);
    expect(found.held.size).toBe(0);
  });

  it('holds a file whose text an orphan has while it differs otherwise, as uncertain', () => {
    const near = livePost('p1', kept);
    const found = match([desired('b', later)], [[near, kept]]);
    expect([...found.held].map(([key, held]) => [key, held.reason, held.candidates.map((live) => live.id)])).toEqual([['b', 'adopt-uncertain', ['p1']]]);
  });
});
