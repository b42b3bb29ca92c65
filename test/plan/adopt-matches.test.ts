import { describe, expect, it } from 'vitest';
import { orphanMediaToLearn } from '../../src/plan/adopt-media.js';
import { livePostsById } from '../../src/plan/plan-context.js';
import { createPlan } from '../../src/plan/planner.js';
import { shapeHash } from '../../src/content/shape-hash.js';
import { PHOTO, SHA_A, SHA_B, VIDEO, desired, livePost, mediaId, mediaState, planInput, record, shape, state } from '../helpers/fixtures.js';

/** Adopt, don't duplicate: a new file that is exactly an orphan remote post takes it over. */

const SCHEDULED = shape({ content: 'Launch day', scheduledAt: '2026-04-01T09:00:00.000Z' });

describe('createPlan: adopting orphan remote posts', () => {
  it('adopts a remote draft that is exactly the new file, with no API call to make', () => {
    const plan = createPlan(planInput({ desired: [desired('launch')], live: [livePost('p1', shape())] }));
    expect(plan.changes).toEqual([
      expect.objectContaining({ action: 'adopt', key: 'launch', postId: 'p1', liveUpdatedAt: '2026-01-02T00:00:00.000Z', stateOnly: true, desired: shape() }),
    ]);
    expect(plan.changes[0]!.details).toEqual([{ code: 'adopted', how: 'unowned-match', status: 'draft' }]);
    expect(plan.summary).toMatchObject({ adopt: 1, create: 0 });
    expect(plan.diagnostics).toEqual([]);
  });

  it('adopts a scheduled post with the same instant written otherwise, and media known by content', () => {
    const withMedia = shape({ ...SCHEDULED, media: [SHA_A] });
    const live = livePost('p1', withMedia, { scheduledAt: '2026-04-01T11:00:00+02:00' });
    const plan = createPlan(planInput({ desired: [desired('launch', withMedia)], live: [live], state: state({ media: mediaState(SHA_A) }) }));
    expect(plan.changes.map((change) => [change.action, change.postId])).toEqual([['adopt', 'p1']]);
    expect(plan.uploads).toEqual([]);
  });

  it('pairs identical files one-to-one with identical posts in createdAt/id order; a third file is a create', () => {
    const live = [
      livePost('p-late', shape(), { createdAt: '2026-01-03T00:00:00.000Z' }),
      livePost('p-b', shape()),
      livePost('p-a', shape()),
    ];
    const plan = createPlan(planInput({ desired: [desired('c'), desired('a'), desired('b'), desired('d')], live }));
    expect(plan.changes.map((change) => [change.action, change.key, change.postId])).toEqual([
      ['create', 'd', null],
      ['adopt', 'a', 'p-a'],
      ['adopt', 'b', 'p-b'],
      ['adopt', 'c', 'p-late'],
    ]);
  });

  it('never adopts a near-match, and never creates beside it: it holds the file, naming the candidate, what differs and the commands that decide', () => {
    const live = [
      livePost('p-time', { ...SCHEDULED, scheduledAt: '2026-04-02T09:00:00.000Z' }),
    ];
    const plan = createPlan(planInput({ desired: [desired('launch', SCHEDULED)], live }));
    expect(plan.changes).toEqual([expect.objectContaining({ action: 'blocked', reason: 'adopt-uncertain', key: 'launch', postId: null })]);
    expect(plan.changes[0]!.details).toEqual([
      { code: 'adopt-uncertain', candidates: [{ postId: 'p-time', status: 'scheduled', createdAt: '2026-01-01T00:00:00.000Z', differs: ['scheduledAt'] }] },
      { code: 'adopt-hint', key: 'launch' },
    ]);
    expect(plan.diagnostics).toEqual([]);
  });

  const linked = (link: string) => shape({ targets: [{ socialAccountId: PHOTO, options: { link } }] });
  it.each([
    ['targets', shape(), shape({ targets: [{ socialAccountId: VIDEO, options: {} }] }), [`targets[${PHOTO}]`, `targets[${VIDEO}]`]],
    ['options', linked('https://example.com/a'), linked('https://example.com/b'), [`targets[${PHOTO}].options.link`]],
    ['overrides', shape(), shape({ targets: [{ socialAccountId: PHOTO, options: {}, contentOverride: 'Hi' }] }), [`targets[${PHOTO}].contentOverride`]],
    ['media', shape(), shape({ media: [SHA_B] }), ['media']],
  ])('never adopts a post with other %s', (_, file, remote, differs) => {
    const plan = createPlan(planInput({ desired: [desired('launch', file)], live: [livePost('p1', remote)], state: state({ media: mediaState(SHA_B) }) }));
    expect(plan.changes.map((change) => [change.action, change.reason])).toEqual([['blocked', 'adopt-uncertain']]);
    expect(plan.changes[0]!.details[0]).toEqual({ code: 'adopt-uncertain', candidates: [{ postId: 'p1', status: 'draft', createdAt: '2026-01-01T00:00:00.000Z', differs }] });
  });

  it('adopts a post that carries a value for an option the file leaves unset: the service\'s default, no difference', () => {
    const remote = shape({ targets: [{ socialAccountId: PHOTO, options: { format: 'feed', shareToFeed: true } }] });
    const plan = createPlan(planInput({ desired: [desired('launch')], live: [livePost('p1', remote)] }));
    expect(plan.changes).toMatchObject([{ action: 'adopt', postId: 'p1' }]);
  });

  it('never matches a media id that state does not know', () => {
    const withMedia = shape({ media: [SHA_A] });
    const live = livePost('p1', withMedia);
    const plan = createPlan(planInput({ desired: [desired('launch', withMedia)], live: [live] }));
    expect(live.media[0]!.id).toBe(mediaId(SHA_A));
    expect(plan.changes.map((change) => change.action)).toEqual(['blocked']);
    expect(plan.changes[0]!.details[0]).toMatchObject({ candidates: [{ differs: ['media'] }] });
  });

  it('never adopts a post a state entry owns, even when its own file is gone', () => {
    const plan = createPlan(planInput({
      desired: [desired('copy', shape(), { file: 'posts/copy.md' })],
      live: [livePost('p1', shape({ content: 'Other' }))],
      state: state({ posts: { original: record('p1', shape({ content: 'Other' }), 'posts/original.md') } }),
    }));
    // The owned post keeps its owner (removed file, no --prune); the new file is created.
    expect(plan.changes.map((change) => [change.action, change.key])).toEqual([['create', 'copy'], ['noop', 'original']]);
    const owned = createPlan(planInput({
      desired: [desired('a'), desired('b')],
      live: [livePost('p1', shape())],
      state: state({ posts: { a: record('p1', shape(), 'posts/a.md') } }),
    }));
    expect(owned.changes.map((change) => [change.action, change.key, change.postId])).toEqual([['create', 'b', null], ['noop', 'a', 'p1']]);
  });

  it('never adopts a published post, or one in any status other than draft and scheduled', () => {
    for (const status of ['published', 'publishing', 'failed'] as const) {
      const plan = createPlan(planInput({ desired: [desired('launch', SCHEDULED)], live: [livePost('p1', SCHEDULED, { status })] }));
      expect(plan.changes.map((change) => change.action)).toEqual(['create']);
      expect(plan.diagnostics).toEqual([]);
    }
  });

  it('leaves to a pending create the post its payload made, and resumes it instead', () => {
    const payload = { content: 'Hello', targets: [{ socialAccountId: PHOTO }], mediaIds: [] };
    const pending = { launch: { file: 'posts/launch.md', idempotencyKey: 'k', payload, shapeHash: shapeHash(shape()), startedAt: '2026-01-01T00:00:00.000Z' } };
    const plan = createPlan(planInput({ desired: [desired('launch'), desired('twin')], live: [livePost('p1', shape())], state: state({ pending }) }));
    expect(plan.changes.map((change) => [change.action, change.key])).toEqual([['create', 'launch'], ['create', 'twin']]);
    expect(plan.changes[0]!.resumesPending).toBe(true);
  });
});

describe('createPlan: media the state does not know, known by content from the service (mediaSha256s)', () => {
  const withMedia = shape({ media: [SHA_A, SHA_B] });

  it('adopts an orphan whose media ids only the supplement knows, and the adopt carries their media records', () => {
    const live = livePost('p1', withMedia);
    const mediaSha256s = new Map([[mediaId(SHA_A), SHA_A], [mediaId(SHA_B), SHA_B]]);
    const plan = createPlan(planInput({ desired: [desired('launch', withMedia)], live: [live], mediaSha256s }));
    expect(plan.changes.map((change) => [change.action, change.postId])).toEqual([['adopt', 'p1']]);
    expect(plan.changes[0]!.mediaRecords).toEqual([
      { sha256: SHA_A, mediaId: mediaId(SHA_A), sizeBytes: 1234, contentType: 'image/png' },
      { sha256: SHA_B, mediaId: mediaId(SHA_B), sizeBytes: 1234, contentType: 'image/png' },
    ]);
    expect(plan.uploads).toEqual([]);
    expect(plan.diagnostics).toEqual([]);
  });

  it('records the media type the file has, whatever the service says', () => {
    const mediaSha256s = new Map([[mediaId(SHA_A), SHA_A], [mediaId(SHA_B), SHA_B]]);
    const live = livePost('p1', withMedia);
    const relabelled = { ...live, media: live.media.map((media) => ({ ...media, contentType: 'application/octet-stream' })) };
    const plan = createPlan(planInput({ desired: [desired('launch', withMedia)], live: [relabelled], mediaSha256s }));
    expect(plan.changes[0]!.mediaRecords?.map((media) => media.contentType)).toEqual(['image/png', 'image/png']);
  });

  it('records only the media the state does not know already', () => {
    const mediaSha256s = new Map([[mediaId(SHA_B), SHA_B]]);
    const plan = createPlan(planInput({ desired: [desired('launch', withMedia)], live: [livePost('p1', withMedia)], mediaSha256s, state: state({ media: mediaState(SHA_A) }) }));
    expect(plan.changes[0]!.mediaRecords).toEqual([{ sha256: SHA_B, mediaId: mediaId(SHA_B), sizeBytes: 1234, contentType: 'image/png' }]);
  });

  it('stays one-to-one: two identical files adopt two identical posts, a third creates and uploads nothing the adopts record', () => {
    const live = [livePost('p-a', withMedia), livePost('p-b', withMedia)];
    const mediaSha256s = new Map([[mediaId(SHA_A), SHA_A], [mediaId(SHA_B), SHA_B]]);
    const plan = createPlan(planInput({ desired: [desired('a', withMedia), desired('b', withMedia), desired('c', withMedia)], live, mediaSha256s }));
    expect(plan.changes.map((change) => [change.action, change.key, change.postId])).toEqual([
      ['create', 'c', null],
      ['adopt', 'a', 'p-a'],
      ['adopt', 'b', 'p-b'],
    ]);
    // Both posts use the same media ids: each adopt names them; apply records them once.
    expect(plan.changes.filter((change) => change.action === 'adopt').map((change) => change.mediaRecords?.length)).toEqual([2, 2]);
    expect(plan.uploads).toEqual([]);
  });

  it('never adopts an orphan whose media content differs, and holds the file; the state records win over the supplement', () => {
    const mediaSha256s = new Map([[mediaId(SHA_A), SHA_B], [mediaId(SHA_B), SHA_B]]);
    const plan = createPlan(planInput({ desired: [desired('launch', withMedia)], live: [livePost('p1', withMedia)], mediaSha256s }));
    expect(plan.changes.map((change) => [change.action, change.reason])).toEqual([['blocked', 'adopt-uncertain']]);
    expect(plan.changes[0]!.details[0]).toMatchObject({ candidates: [{ postId: 'p1', status: 'draft', createdAt: '2026-01-01T00:00:00.000Z', differs: ['media'] }] });
    const known = createPlan(planInput({ desired: [desired('launch', withMedia)], live: [livePost('p1', withMedia)], mediaSha256s, state: state({ media: mediaState(SHA_A) }) }));
    expect(known.changes[0]!.mediaRecords).toEqual([{ sha256: SHA_B, mediaId: mediaId(SHA_B), sizeBytes: 1234, contentType: 'image/png' }]);
    expect(known.changes.map((change) => change.action)).toEqual(['adopt']);
  });

  it('holds a file whose near-match has media not known by content', () => {
    const plan = createPlan(planInput({ desired: [desired('launch', withMedia)], live: [livePost('p1', withMedia)] }));
    expect(plan.changes.map((change) => [change.action, change.reason])).toEqual([['blocked', 'adopt-uncertain']]);
  });
});

describe('orphanMediaToLearn: which remote media a plan fetches to know them by content', () => {
  const withMedia = shape({ media: [SHA_A] });

  it('names the unknown media of an orphan that is a new post in every other field, once per id', () => {
    const live = livePostsById([livePost('p1', withMedia), livePost('p2', withMedia)]);
    const media = orphanMediaToLearn({ newPosts: [desired('launch', withMedia)], state: state(), live });
    expect(media.map((item) => item.id)).toEqual([mediaId(SHA_A)]);
  });

  it('names nothing without new posts with media, or for orphans that differ otherwise, are owned or pending, or whose media are known', () => {
    const live = livePostsById([livePost('p1', withMedia)]);
    expect(orphanMediaToLearn({ newPosts: [], state: state(), live })).toEqual([]);
    expect(orphanMediaToLearn({ newPosts: [desired('launch')], state: state(), live: livePostsById([livePost('p1', shape())]) })).toEqual([]);
    for (const other of [shape({ content: 'Other', media: [SHA_A] }), shape({ media: [SHA_A, SHA_B] }), shape({ ...withMedia, scheduledAt: '2026-04-01T09:00:00.000Z' })]) {
      expect(orphanMediaToLearn({ newPosts: [desired('launch', other)], state: state(), live })).toEqual([]);
    }
    const owned = state({ posts: { other: record('p1', withMedia, 'posts/other.md') } });
    expect(orphanMediaToLearn({ newPosts: [desired('launch', withMedia)], state: owned, live })).toEqual([]);
    expect(orphanMediaToLearn({ newPosts: [desired('launch', withMedia)], state: state({ media: mediaState(SHA_A) }), live })).toEqual([]);
  });
});

describe('matchAdoptions: the details and warnings an adopt gives', () => {
  it('says whether it adopts a draft or a scheduled post', () => {
    const draft = createPlan(planInput({ desired: [desired('launch')], live: [livePost('p1', shape())] }));
    expect(draft.changes[0]).not.toHaveProperty('mediaRecords');
    expect(draft.changes[0]!.details).toEqual([{ code: 'adopted', how: 'unowned-match', status: 'draft' }]);
    const scheduled = createPlan(planInput({ desired: [desired('launch', SCHEDULED)], live: [livePost('p1', SCHEDULED)] }));
    expect(scheduled.changes[0]!.details).toEqual([{ code: 'adopted', how: 'unowned-match', status: 'scheduled' }]);
  });

  it('never holds a file for an orphan with other content, nor for one another file adopts', () => {
    const other = createPlan(planInput({ desired: [desired('launch', SCHEDULED)], live: [livePost('p1', shape({ ...SCHEDULED, content: 'Another text' }))] }));
    expect(other.changes.map((change) => change.action)).toEqual(['create']);
    // `a` adopts p1; `b` has the same text at another time, and p1 is no longer there for it.
    const later = { ...SCHEDULED, scheduledAt: '2026-04-02T09:00:00.000Z' };
    const taken = createPlan(planInput({ desired: [desired('a', SCHEDULED), desired('b', later)], live: [livePost('p1', SCHEDULED)] }));
    expect(taken.changes.map((change) => [change.action, change.key])).toEqual([['create', 'b'], ['adopt', 'a']]);
    expect(taken.diagnostics).toEqual([]);
  });

  it('still adopts any other orphan while a pending create takes its own post', () => {
    const payload = { content: 'Hello', targets: [{ socialAccountId: PHOTO }], mediaIds: [] };
    const pending = { launch: { file: 'posts/launch.md', idempotencyKey: 'k', payload, shapeHash: shapeHash(shape()), startedAt: '2026-01-01T00:00:00.000Z' } };
    const plan = createPlan(planInput({ desired: [desired('launch'), desired('news', SCHEDULED)], live: [livePost('p1', shape()), livePost('p2', SCHEDULED)], state: state({ pending }) }));
    expect(plan.changes.map((change) => [change.action, change.key, change.postId])).toEqual([['create', 'launch', 'p1'], ['adopt', 'news', 'p2']]);
  });
});

describe('createPlan: adopting after a lost state from a service that keeps a tidied form', () => {
  const file = shape({ content: 'Line one:  \nCafe\u0301', scheduledAt: '2026-04-01T09:00:30.000Z', media: [SHA_A, SHA_B], targets: [{ socialAccountId: VIDEO, options: { vidATitle: 'A  title', vidATags: ['#Launch'] } as never }] });
  const kept = shape({ content: 'Line one:\nCafé', scheduledAt: '2026-04-01T09:00:00.000Z', media: [SHA_B, SHA_A], targets: [{ socialAccountId: VIDEO, options: { vidATitle: 'A title', vidATags: ['launch'] } as never }] });
  const media = state({ media: mediaState(SHA_A, SHA_B) });

  it('adopts the one orphan that is the file as the service keeps it, recording what it keeps as observed', () => {
    const live = livePost('p1', kept, { scheduledAt: '2026-04-01T18:00:00+09:00' });
    const plan = createPlan(planInput({ desired: [desired('launch', file)], live: [live], state: media }));
    expect(plan.changes).toEqual([expect.objectContaining({ action: 'adopt', reason: 'tidied-match', postId: 'p1' })]);
    expect(plan.changes[0]!.observedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(plan.changes[0]!.asFound).toBeUndefined();
  });

  it('pairs files that share a tidied form one to one with as many orphans of it, oldest first', () => {
    const live = [livePost('p-b', kept, { createdAt: '2026-01-03T00:00:00.000Z' }), livePost('p-a', kept)];
    const plan = createPlan(planInput({ desired: [desired('b', file), desired('a', file)], live, state: media }));
    expect(plan.changes.map((change) => [change.action, change.key, change.postId])).toEqual([['adopt', 'a', 'p-a'], ['adopt', 'b', 'p-b']]);
  });

  it('holds a file that more than one orphan may be, naming them all, and never creates', () => {
    const plan = createPlan(planInput({ desired: [desired('launch', file)], live: [livePost('p1', kept), livePost('p2', kept)], state: media }));
    expect(plan.changes.map((change) => [change.action, change.reason])).toEqual([['blocked', 'adopt-ambiguous']]);
    expect(plan.changes[0]!.details[0]).toMatchObject({ code: 'adopt-ambiguous', candidates: [{ postId: 'p1' }, { postId: 'p2' }] });
    expect(plan.summary.create).toBe(0);
  });

  it('holds two files that one orphan may be', () => {
    const plan = createPlan(planInput({ desired: [desired('a', file), desired('b', file)], live: [livePost('p1', kept)], state: media }));
    expect(plan.changes.map((change) => [change.action, change.key, change.reason])).toEqual([['blocked', 'a', 'adopt-ambiguous'], ['blocked', 'b', 'adopt-ambiguous']]);
  });

  it('adopts the orphan a person chose as it is (the next plan updates it), and creates what a person chose to create', () => {
    const choices = { adopt: new Map([['a', 'p2']]), recreate: { all: false, keys: new Set(['c']) } };
    const live = [livePost('p1', kept), livePost('p2', kept), livePost('p3', kept)];
    const plan = createPlan(planInput({ desired: [desired('a', file), desired('b', file), desired('c', file)], live, state: media, choices }));
    // `a` takes p2; `b` and `c` share a form that p1 and p3 both have: they are paired one to one.
    expect(plan.changes.map((change) => [change.action, change.key, change.postId, change.reason])).toEqual([['adopt', 'a', 'p2', 'chosen'], ['adopt', 'b', 'p1', 'tidied-match'], ['adopt', 'c', 'p3', 'tidied-match']]);
    expect(plan.changes[0]!.asFound).toBe(true);
    const held = createPlan(planInput({ desired: [desired('c', file)], live: [livePost('p1', kept), livePost('p3', kept)], state: media, choices }));
    expect(held.changes.map((change) => [change.action, change.key, change.reason])).toEqual([['create', 'c', 'new-file']]);
  });

  it('warns when a chosen post cannot be adopted, and plans the file as without the choice', () => {
    const choices = { adopt: new Map([['a', 'p-nope']]), recreate: { all: false, keys: new Set<string>() } };
    const plan = createPlan(planInput({ desired: [desired('a', file)], live: [livePost('p1', kept)], state: media, choices }));
    expect(plan.changes.map((change) => [change.action, change.reason])).toEqual([['adopt', 'tidied-match']]);
    expect(plan.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'adopt-choice-unavailable', file: 'posts/a.md' })]);
  });
});
