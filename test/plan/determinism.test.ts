import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareChanges, createPlan, mediaUploads } from '../../src/plan/planner.js';
import type { Change } from '../../src/plan/types.js';
import { SHA_A, SHA_B, desired, desiredMedia, livePost, looseChange, mediaState, planInput, record, shape, state } from '../helpers/fixtures.js';

const twin = shape({ content: 'Same text in two files' });

/** The state's records in the given key order (as a state file merged by hand may list them). */
function stateInOrder(keys: string[]) {
  return state({ posts: Object.fromEntries(keys.map((key) => [key, record(`p-${key}`, twin, `posts/${key}.md`)])) });
}

describe('createPlan: the same input in any order gives the same plan', () => {
  it('pairs renamed twins in key order, whatever order the state lists them in', () => {
    const live = [livePost('p-a', twin), livePost('p-b', twin)];
    for (const keys of [['a', 'b'], ['b', 'a']]) {
      const plan = createPlan(planInput({ desired: [desired('c', twin), desired('d', twin)], state: stateInOrder(keys), live }));
      expect(plan.changes.map((change) => [change.action, change.fromKey, change.key, change.postId])).toEqual([
        ['move', 'a', 'c', 'p-a'],
        ['move', 'b', 'd', 'p-b'],
      ]);
    }
  });

  it('property: shuffling desired posts, state records and live posts changes nothing', () => {
    const keys = ['a', 'b', 'c', 'd', 'e'];
    fc.assert(
      fc.property(
        fc.shuffledSubarray(keys, { minLength: 5, maxLength: 5 }),
        fc.shuffledSubarray(['v', 'w', 'x', 'y'], { minLength: 4, maxLength: 4 }),
        fc.shuffledSubarray(keys, { minLength: 5, maxLength: 5 }),
        (stateOrder, desiredOrder, liveOrder) => {
          const live = liveOrder.map((key) => livePost(`p-${key}`, twin));
          const plan = (order: string[], desiredKeys: string[], liveList: typeof live) =>
            createPlan(planInput({ desired: desiredKeys.map((key) => desired(key, twin)), state: stateInOrder(order), live: liveList, prune: true }));
          const sorted = plan([...keys], ['v', 'w', 'x', 'y'], [...live].sort((p, q) => (p.id < q.id ? -1 : 1)));
          expect(plan(stateOrder, desiredOrder, live)).toEqual(sorted);
          expect(sorted.changes.map((change) => `${change.action}:${change.fromKey ?? ''}>${change.key}`)).toEqual(['move:a>v', 'move:b>w', 'move:c>x', 'move:d>y', 'delete:>e']);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('mediaUploads', () => {
  const a = desiredMedia(SHA_A, 'media/z-last.png');
  const b = desiredMedia(SHA_B, 'media/a-first.png');

  it('lists each file once, by path, with the keys that use it sorted and once each', () => {
    const owned = state({ posts: { early: record('p1', shape(), 'posts/early.md') } });
    const uses = (key: string, media: ReturnType<typeof desiredMedia>[]) => desired(key, shape({ content: key, media: media.map((m) => m.sha256) }), { media });
    const plan = createPlan(planInput({
      desired: [uses('zeta', [a, a]), uses('early', [a, b])],
      state: owned,
      live: [livePost('p1', shape())],
    }));
    // The create of `zeta` runs before the update of `early`, yet `early` is listed first.
    expect(plan.changes.map((change) => `${change.action}:${change.key}`)).toEqual(['create:zeta', 'update:early']);
    expect(plan.uploads.map((upload) => [upload.path, upload.usedBy])).toEqual([
      ['media/a-first.png', ['early']],
      ['media/z-last.png', ['early', 'zeta']],
    ]);
  });

  it('orders files with the same path by sha256', () => {
    const changes: Change[] = [looseChange({ action: 'create', key: 'one', file: 'posts/one.md', postId: null, details: [] })];
    const desiredPosts = new Map([['one', desired('one', shape({ media: [SHA_B, SHA_A] }), { media: [desiredMedia(SHA_B, 'media/x.png'), desiredMedia(SHA_A, 'media/x.png')] })]]);
    expect(mediaUploads(changes, desiredPosts, state()).map((upload) => upload.sha256)).toEqual([SHA_A, SHA_B]);
  });

  it('uploads nothing the state already has, and nothing for changes that send no post', () => {
    const desiredPosts = new Map(['c', 'u', 'm', 'd', 'n', 'b'].map((key) => [key, desired(key, shape({ media: [SHA_A] }), { media: [desiredMedia(SHA_A, 'media/a.png')] })]));
    const changes = (['move', 'delete', 'noop', 'blocked'] as const).map((action, i): Change => looseChange({ action, key: ['m', 'd', 'n', 'b'][i]!, file: null, postId: 'p', details: [] }));
    expect(mediaUploads(changes, desiredPosts, state())).toEqual([]);
    const sending: Change[] = [looseChange({ action: 'create', key: 'c', file: null, postId: null, details: [] }), looseChange({ action: 'update', key: 'u', file: null, postId: 'p', details: [] })];
    expect(mediaUploads(sending, desiredPosts, state()).map((upload) => upload.usedBy)).toEqual([['c', 'u']]);
    expect(mediaUploads(sending, desiredPosts, state({ media: mediaState(SHA_A) }))).toEqual([]);
  });
});

describe('compareChanges', () => {
  it('orders by action (create, update, move, delete, blocked, noop), then key, then the key moved from', () => {
    const change = (action: Change['action'], key: string, fromKey?: string): Change => looseChange({ action, key, file: null, postId: null, details: [], ...(fromKey ? { fromKey } : {}) });
    const sorted = [change('move', 'k', 'b'), change('move', 'k'), change('noop', 'a'), change('move', 'k', 'A'), change('blocked', 'a'), change('delete', 'a'), change('update', 'b'), change('update', 'a'), change('create', 'z')].sort(compareChanges);
    expect(sorted.map((c) => `${c.action}:${c.key}${c.fromKey ? `<${c.fromKey}` : ''}`)).toEqual([
      'create:z', 'update:a', 'update:b', 'move:k', 'move:k<A', 'move:k<b', 'delete:a', 'blocked:a', 'noop:a',
    ]);
  });
});
