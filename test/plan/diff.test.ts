import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PostShape, TargetShape } from '../../src/content/types.js';
import { diffShapes, fieldNames } from '../../src/plan/diff.js';
import { fieldList } from '../../src/plan-words/reason-words.js';
import { canonicalJson } from '../../src/state/hash.js';
import { PHOTO, SHA_A, SHA_B, VIDEO, shape } from '../helpers/fixtures.js';

const target = (socialAccountId: string, rest: Partial<TargetShape> = {}): TargetShape => ({ socialAccountId, options: {}, ...rest });

describe('diffShapes', () => {
  it('sees no change in equal options, however many', () => {
    const options = { vidATitle: 'Launch', vidATags: ['a', 'b'], shortBAllowDuet: false };
    const a = shape({ targets: [target(PHOTO, { contentOverride: 'x', options: { shareToFeed: true } }), target(VIDEO, { options })] });
    const b = shape({ targets: [target(PHOTO, { contentOverride: 'x', options: { shareToFeed: true } }), target(VIDEO, { options: { ...options } })] });
    expect(diffShapes(a, b)).toEqual([]);
  });

  it('reports each changed option by name in name order, an absent side as null', () => {
    const before = shape({ targets: [target(VIDEO, { options: { vidATitle: 'Old', vidATags: ['a'] } })] });
    const after = shape({ targets: [target(VIDEO, { options: { vidATags: ['a'], vidADescription: 'New', vidATitle: 'New' } })] });
    expect(diffShapes(before, after)).toEqual([
      { field: `targets[${VIDEO}].options.vidADescription`, before: null, after: 'New' },
      { field: `targets[${VIDEO}].options.vidATitle`, before: 'Old', after: 'New' },
    ]);
    expect(diffShapes(after, before).map((change) => [change.field, change.after])).toEqual([
      [`targets[${VIDEO}].options.vidADescription`, null],
      [`targets[${VIDEO}].options.vidATitle`, 'Old'],
    ]);
  });

  it('reports an override added, changed or removed, an absent side as null', () => {
    const none = shape({ targets: [target(PHOTO)] });
    const some = shape({ targets: [target(PHOTO, { contentOverride: 'photo text' })] });
    expect(diffShapes(none, some)).toEqual([{ field: `targets[${PHOTO}].contentOverride`, before: null, after: 'photo text' }]);
    expect(diffShapes(some, none)).toEqual([{ field: `targets[${PHOTO}].contentOverride`, before: 'photo text', after: null }]);
  });

  it('reports an account added or removed whole, the other side null, accounts in id order', () => {
    const photo = target(PHOTO, { options: { shareToFeed: true } });
    const video = target(VIDEO);
    expect(diffShapes(shape({ targets: [photo] }), shape({ targets: [photo, video] }))).toEqual([{ field: `targets[${VIDEO}]`, before: null, after: video }]);
    expect(diffShapes(shape({ targets: [video, photo] }), shape({ targets: [] }))).toEqual([
      { field: `targets[${PHOTO}]`, before: photo, after: null },
      { field: `targets[${VIDEO}]`, before: video, after: null },
    ]);
  });

  it('reports a duplicated or reordered account list as the whole list', () => {
    const photo = target(PHOTO);
    const video = target(VIDEO);
    expect(diffShapes(shape({ targets: [photo, video] }), shape({ targets: [video, photo] }))).toEqual([
      { field: 'targets', before: [photo, video], after: [video, photo] },
    ]);
    expect(diffShapes(shape({ targets: [photo] }), shape({ targets: [photo, photo] }))).toEqual([{ field: 'targets', before: [photo], after: [photo, photo] }]);
  });

  it('lists content, scheduledAt and media first, with their values', () => {
    const before = shape({ content: 'a', scheduledAt: null, media: [SHA_A], targets: [target(PHOTO)] });
    const after = shape({ content: 'b', scheduledAt: '2026-12-01T08:00:00.000Z', media: [SHA_A, SHA_B], targets: [target(PHOTO, { contentOverride: 'o' })] });
    const changes = diffShapes(before, after);
    expect(changes.slice(0, 3)).toEqual([
      { field: 'content', before: 'a', after: 'b' },
      { field: 'scheduledAt', before: null, after: '2026-12-01T08:00:00.000Z' },
      { field: 'media', before: [SHA_A], after: [SHA_A, SHA_B] },
    ]);
    expect(fieldList(fieldNames(changes))).toBe(`content, scheduledAt, media, targets[${PHOTO}].contentOverride`);
  });
});

const option = fc.record(
  { shareToFeed: fc.boolean(), vidATitle: fc.constantFrom('A', 'B'), vidATags: fc.constantFrom(['x'], ['x', 'y']).map((tags) => [...tags]) },
  { requiredKeys: [] },
);
const targets = fc.uniqueArray(
  fc.record({ socialAccountId: fc.constantFrom(PHOTO, VIDEO), options: option, contentOverride: fc.option(fc.constantFrom('o', 'p'), { nil: undefined }) }),
  { selector: (t) => t.socialAccountId, maxLength: 2 },
).map((list) => list.map(({ contentOverride, ...rest }) => (contentOverride === undefined ? rest : { ...rest, contentOverride })));
const smallShape: fc.Arbitrary<PostShape> = fc.record({
  content: fc.constantFrom('a', 'b'),
  scheduledAt: fc.constantFrom(null, '2026-12-01T08:00:00.000Z'),
  targets,
  media: fc.constantFrom([], [SHA_A], [SHA_A, SHA_B]),
});

describe('property: diffShapes', () => {
  it('is empty iff the shapes are canonically equal, options included', () => {
    fc.assert(
      fc.property(smallShape, smallShape, (a, b) => {
        expect(diffShapes(a, b).length === 0).toBe(canonicalJson(a) === canonicalJson(b));
        expect(diffShapes(a, structuredClone(a))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
