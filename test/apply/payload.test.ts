import { describe, expect, it } from 'vitest';
import { createBody, draftOf, mediaIdsFor, patchBody } from '../../src/apply/payload.js';
import { PostsyncError } from '../../src/errors.js';
import { diffShapes } from '../../src/plan/diff.js';
import type { PostShape } from '../../src/content/types.js';
import { PHOTO, SHA_A, SHA_B, VIDEO, mediaId, mediaState, shape } from '../helpers/fixtures.js';

const media = { media: mediaState(SHA_A, SHA_B) };

const full: PostShape = shape({
  content: 'Launch',
  scheduledAt: '2026-12-01T08:00:00.000Z',
  targets: [
    { socialAccountId: PHOTO, contentOverride: 'For the photo account', options: {} },
    { socialAccountId: VIDEO, options: { vidATitle: 'Launch' } },
  ],
  media: [SHA_B, SHA_A],
});

const TARGETS_SENT = [
  { socialAccountId: PHOTO, contentOverride: 'For the photo account' },
  { socialAccountId: VIDEO, options: { vidATitle: 'Launch' } },
];

describe('createBody', () => {
  it('sends content, targets and media ids in order, and never a schedule: a create is always a draft', () => {
    expect(createBody(full, media)).toEqual({ content: 'Launch', targets: TARGETS_SENT, mediaIds: [mediaId(SHA_B), mediaId(SHA_A)] });
  });

  it('leaves out an absent override and empty options, but sends an empty override', () => {
    const body = createBody(shape({ targets: [{ socialAccountId: PHOTO, contentOverride: '', options: {} }, { socialAccountId: VIDEO, options: {} }] }), media);
    expect(body.targets).toEqual([{ socialAccountId: PHOTO, contentOverride: '' }, { socialAccountId: VIDEO }]);
  });
});

describe('mediaIdsFor', () => {
  it('refuses media that has no uploaded copy, naming it', () => {
    const missing = () => mediaIdsFor(shape({ media: [SHA_A] }), { media: {} });
    expect(missing).toThrow(PostsyncError);
    expect(missing).toThrow(`media ${'a'.repeat(12)}… has no uploaded copy; its upload did not finish`);
  });
});

describe('draftOf', () => {
  it('is the shape without its schedule', () => {
    expect(draftOf(full)).toEqual({ ...full, scheduledAt: null });
    expect(full.scheduledAt).toBe('2026-12-01T08:00:00.000Z');
  });
});

describe('patchBody', () => {
  const before = shape({ content: 'Old', targets: [{ socialAccountId: PHOTO, options: {} }], media: [SHA_A] });

  it('sends nothing for no change', () => {
    expect(patchBody(full, [], media)).toEqual({});
  });

  it.each([
    ['content', { content: 'Launch' }],
    ['scheduledAt', { scheduledAt: '2026-12-01T08:00:00.000Z' }],
    ['media', { mediaIds: [mediaId(SHA_B), mediaId(SHA_A)] }],
    ['targets', { targets: TARGETS_SENT }],
    [`targets[${PHOTO}]`, { targets: TARGETS_SENT }],
    [`targets[${PHOTO}].contentOverride`, { targets: TARGETS_SENT }],
    [`targets[${VIDEO}].options.vidATitle`, { targets: TARGETS_SENT }],
  ])('sends just the field that changed (%s), lists whole', (field, body) => {
    expect(patchBody(full, [{ field, before: null, after: null }], media)).toEqual(body);
  });

  it('sends every changed field of a diff, and an unschedule as null', () => {
    const after = shape({ content: 'New', targets: [{ socialAccountId: PHOTO, options: { shareToFeed: true } }], media: [SHA_B] });
    expect(patchBody(after, diffShapes(before, after), media)).toEqual({
      content: 'New',
      targets: [{ socialAccountId: PHOTO, options: { shareToFeed: true } }],
      mediaIds: [mediaId(SHA_B)],
    });
    const unscheduled = patchBody(shape(), [{ field: 'scheduledAt', before: '2026-12-01T08:00:00.000Z', after: null }], media);
    expect(unscheduled).toEqual({ scheduledAt: null });
  });
});
