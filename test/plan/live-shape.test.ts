import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OptionsInput } from '../../src/api/types.js';
import type { PostShape } from '../../src/content/types.js';
import { diffShapes } from '../../src/plan/diff.js';
import { liveShape, mediaIdIndex, normalizeInstant } from '../../src/plan/live-shape.js';
import { compareText } from '../../src/text/ordering.js';
import { createPlan } from '../../src/plan/planner.js';
import { shapeHash } from '../../src/content/shape-hash.js';
import { PHOTO, SHA_A, SHA_B, VIDEO, desired, livePost, mediaId, mediaState, planInput, record, shape, state } from '../helpers/fixtures.js';

/** Worked out when a test reads it, so `mediaIdIndex` runs under that test. */
const ids = () => mediaIdIndex({ media: mediaState(SHA_A, SHA_B) });

describe('liveShape', () => {
  it('gives back the desired shape for a post built from it', () => {
    const desiredShape = shape({
      content: '  as written\n',
      scheduledAt: '2026-12-01T08:00:00.000Z',
      targets: [
        { socialAccountId: PHOTO, contentOverride: 'photo text', options: { shareToFeed: false } },
        { socialAccountId: VIDEO, options: { vidATitle: 'Launch', vidATags: ['b', 'a'] } },
      ],
      media: [SHA_B, SHA_A],
    });
    // The service answers with an offset, reversed targets and response-only options.
    const live = livePost('p1', desiredShape, { scheduledAt: '2026-12-01T09:00:00+01:00' });
    expect(live.targets[0]?.options).toHaveProperty('vidAPrivacy');
    expect(liveShape(live, ids())).toEqual(desiredShape);
    expect(shapeHash(liveShape(live, ids()))).toBe(shapeHash(desiredShape));
  });

  it('drops undefined options and absent overrides, and marks unknown media', () => {
    const live = livePost('p1', shape(), {
      targets: [{ socialAccountId: PHOTO, platform: 'photoC', handle: '@a', status: 'pending', options: { link: undefined, shortBPrivacy: 'x' } }],
      media: [{ id: 'unknown-media', kind: 'image', url: 'u', sourceAvailable: true, contentType: 'image/png' }],
    });
    expect(liveShape(live, ids())).toEqual({
      content: 'Hello',
      scheduledAt: null,
      targets: [{ socialAccountId: PHOTO, options: {} }],
      media: ['id:unknown-media'],
    });
  });

  it('keeps only the input options with a value, and no override the service leaves out or answers as null', () => {
    for (const contentOverride of [undefined, null]) {
      const live = livePost('p1', shape(), {
        targets: [{ socialAccountId: PHOTO, platform: 'photoC', handle: '@a', status: 'pending', contentOverride, options: { link: undefined, shareToFeed: false, vidAPrivacy: 'public' } } as never],
      });
      const [target] = liveShape(live, ids()).targets;
      expect(Object.keys(target!).sort()).toEqual(['options', 'socialAccountId']);
      expect(Object.keys(target!.options)).toEqual(['shareToFeed']);
    }
  });

  it('orders text by code unit, whatever the locale', () => {
    expect(['b', 'B', 'a', 'é', 'z', 'a'].sort(compareText)).toEqual(['B', 'a', 'a', 'b', 'z', 'é']);
    expect([compareText('a', 'b'), compareText('b', 'a'), compareText('a', 'a')]).toEqual([-1, 1, 0]);
  });

  it('normalizes instants and keeps non-dates as written', () => {
    expect(normalizeInstant('2026-12-01T09:00:00+01:00')).toBe('2026-12-01T08:00:00.000Z');
    expect(normalizeInstant('2026-12-01T08:00:00Z')).toBe('2026-12-01T08:00:00.000Z');
    expect(normalizeInstant(null)).toBeNull();
    expect(normalizeInstant('soon')).toBe('soon');
  });

  it('maps media ids back to the sha256 recorded in state', () => {
    expect(ids().get(mediaId(SHA_A))).toBe(SHA_A);
  });
});

describe('diffShapes', () => {
  it('reports account additions, removals and per-account fields', () => {
    const before = shape({ targets: [{ socialAccountId: PHOTO, options: { link: 'a' } }, { socialAccountId: 'gone', options: {} }] });
    const after = shape({ targets: [{ socialAccountId: PHOTO, contentOverride: 'o', options: {} }, { socialAccountId: VIDEO, options: {} }] });
    expect(diffShapes(before, after).map((c) => c.field)).toEqual([
      `targets[${PHOTO}].contentOverride`,
      `targets[${PHOTO}].options.link`,
      `targets[${VIDEO}]`,
      'targets[gone]',
    ]);
  });

  it('reports media order changes', () => {
    expect(diffShapes(shape({ media: [SHA_A, SHA_B] }), shape({ media: [SHA_B, SHA_A] }))).toEqual([
      { field: 'media', before: [SHA_A, SHA_B], after: [SHA_B, SHA_A] },
    ]);
  });

  it('is empty for equal shapes', () => {
    expect(diffShapes(shape(), shape())).toEqual([]);
  });
});

const account = fc.constantFrom(PHOTO, VIDEO, '00000000-0000-4000-8000-000000000003');
const options: fc.Arbitrary<OptionsInput> = fc.record(
  { shareToFeed: fc.boolean(), link: fc.webUrl(), vidATitle: fc.string(), vidATags: fc.array(fc.string(), { maxLength: 3 }), shortBAllowDuet: fc.boolean() },
  { requiredKeys: [] },
);
const MINUTES_2020 = Date.parse('2020-01-01T00:00:00Z') / 60_000;
const instant = fc.oneof(
  fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-01-01T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString()),
  // Whole minutes, as schedules mostly are: the service may then leave out seconds.
  fc.integer({ min: MINUTES_2020, max: MINUTES_2020 + 15 * 366 * 24 * 60 }).map((minutes) => new Date(minutes * 60_000).toISOString()),
);
const randomShape: fc.Arbitrary<PostShape> = fc.record({
  content: fc.string(),
  scheduledAt: fc.option(instant, { nil: null }),
  targets: fc
    .uniqueArray(fc.record({ socialAccountId: account, contentOverride: fc.option(fc.string(), { nil: undefined }), options }), {
      selector: (target) => target.socialAccountId,
      maxLength: 3,
    })
    .map((targets) =>
      targets
        .map(({ contentOverride, ...rest }) => (contentOverride === undefined ? rest : { ...rest, contentOverride }))
        .sort((a, b) => (a.socialAccountId < b.socialAccountId ? -1 : 1)),
    ),
  media: fc.array(fc.constantFrom(SHA_A, SHA_B), { maxLength: 3 }),
});
const offsetMinutes = fc.integer({ min: -12 * 60, max: 14 * 60 });
/** How a service may write an instant: to the millisecond, the microsecond, or the whole second/minute when that is exact. */
const precision = fc.constantFrom('ms', 'us', 's', 'min');

/** The same instant written with a numeric offset (or Z for 0) in one of the precisions that keep it exact. */
function withOffset(iso: string, minutes: number, digits: string = 'ms'): string {
  const local = new Date(Date.parse(iso) + minutes * 60_000).toISOString();
  const exact = digits === 'min' ? (local.endsWith(':00.000Z') ? local.slice(0, 16) : null) : digits === 's' ? (local.endsWith('.000Z') ? local.slice(0, 19) : null) : null;
  const time = exact ?? (digits === 'us' ? `${local.slice(0, 23)}000` : local.slice(0, 23));
  if (minutes === 0) return `${time}Z`;
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${time}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** What the service may send that postsync never sent: response-only option fields, target statuses it does not know. */
const responseOnly = fc.record({
  options: fc.dictionary(fc.constantFrom('vidAPrivacy', 'shortBMode', 'futureField', 'reach'), fc.oneof(fc.string(), fc.integer(), fc.boolean()), { maxKeys: 3 }),
  status: fc.constantFrom('pending', 'published', 'failed', 'rejected-by-platform', 'some-new-status'),
});
/** The live post's updatedAt: the one recorded at the last apply, or a later one (touched on the remote). */
const updatedAt = fc.option(instant, { nil: undefined });

describe('property: a live post echoing the desired shapes', () => {
  it('plans only noops, however the service writes it back', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ shape: randomShape, offset: offsetMinutes, digits: precision, extra: fc.array(responseOnly, { maxLength: 3 }), touchedAt: updatedAt }), { minLength: 1, maxLength: 5 }),
        (entries) => {
          const posts = entries.map((entry, index) => desired(`post-${index}`, entry.shape));
          const live = entries.map((entry, index) => {
            const echoed = livePost(`p${index}`, entry.shape, {
              scheduledAt: entry.shape.scheduledAt && withOffset(entry.shape.scheduledAt, entry.offset, entry.digits),
              ...(entry.touchedAt === undefined ? {} : { updatedAt: entry.touchedAt }),
            });
            echoed.targets = echoed.targets.map((target, i) => {
              const extra = entry.extra[i];
              return extra === undefined ? target : { ...target, status: extra.status, options: { ...target.options, ...extra.options } };
            });
            return echoed;
          });
          const section = state({
            media: mediaState(SHA_A, SHA_B),
            posts: Object.fromEntries(posts.map((post, index) => [post.key, record(`p${index}`, post.shape, post.file)])),
          });
          const plan = createPlan(planInput({ desired: posts, state: section, live }));
          expect(plan.changes.map((change) => change.action)).toEqual(posts.map(() => 'noop'));
          expect(plan.changes.map((change) => change.liveUpdatedAt)).toEqual(live.map((post) => post.updatedAt));
          expect(plan.uploads).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes instants in every form the generator uses as the same instant', () => {
    expect(withOffset('2026-12-01T08:00:00.000Z', 60, 'min')).toBe('2026-12-01T09:00+01:00');
    expect(withOffset('2026-12-01T08:00:00.000Z', -90, 's')).toBe('2026-12-01T06:30:00-01:30');
    expect(withOffset('2026-12-01T08:00:00.120Z', 0, 'us')).toBe('2026-12-01T08:00:00.120000Z');
    expect(withOffset('2026-12-01T08:00:00.120Z', 0, 's')).toBe('2026-12-01T08:00:00.120Z');
    for (const form of ['ms', 'us', 's', 'min']) expect(normalizeInstant(withOffset('2026-12-01T08:00:00.000Z', 330, form))).toBe('2026-12-01T08:00:00.000Z');
  });
});
