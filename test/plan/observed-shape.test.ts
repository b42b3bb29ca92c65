import { describe, expect, it } from 'vitest';
import { shapeHash } from '../../src/content/shape-hash.js';
import { liveShape } from '../../src/plan/live-shape.js';
import { createPlan } from '../../src/plan/planner.js';
import { changedOnRemote } from '../../src/plan/remote-change.js';
import { tidiedShape, tidiedText } from '../../src/plan/tidied-shape.js';
import { PHOTO, SHA_A, SHA_B, desired, livePost, mediaId, mediaState, planInput, record, shape, state } from '../helpers/fixtures.js';

/**
 * A service that keeps a tidied form of what it is sent: trailing blanks trimmed, NFC, the
 * schedule to the minute. Its `updatedAt` also moves in the background, so every plan compares shapes.
 */
const applied = shape({ content: 'Line one:  \nCafe\u0301', scheduledAt: '2031-03-01T08:00:30.000Z', targets: [{ socialAccountId: PHOTO, options: { shareToFeed: true } }], media: [SHA_A, SHA_B] });
const kept = shape({ ...applied, content: 'Line one:\nCafé', scheduledAt: '2031-03-01T08:00:00.000Z' });
const TOUCHED = '2031-02-01T10:00:00.000Z';
const keptLive = livePost('p1', kept, { updatedAt: TOUCHED, scheduledAt: '2031-03-01T17:00:00+09:00', media: [SHA_B, SHA_A].map((sha) => ({ id: mediaId(sha), kind: 'image', url: 'u', sourceAvailable: true, contentType: 'image/png' })) });
const media = mediaState(SHA_A, SHA_B);
const observedHash = shapeHash(liveShape(keptLive, new Map([[mediaId(SHA_A), SHA_A], [mediaId(SHA_B), SHA_B]])));

describe('the observed shape: what the service keeps, beside what was applied', () => {
  it('a tidied form the service keeps is no drift, however often its updatedAt moves', () => {
    const owned = state({ media, posts: { launch: { ...record('p1', applied, 'posts/launch.md'), observedHash } } });
    const plan = createPlan(planInput({ desired: [desired('launch', applied)], state: owned, live: [keptLive] }));
    expect(plan.changes.map((change) => [change.action, change.reason])).toEqual([['noop', 'up-to-date']]);
  });

  it('a change on the remote beyond what it answered is drift, and the update sends the file', () => {
    const owned = state({ media, posts: { launch: { ...record('p1', applied, 'posts/launch.md'), observedHash } } });
    const edited = { ...keptLive, content: 'Line one:\nCafé, edited in the app' };
    const plan = createPlan(planInput({ desired: [desired('launch', applied)], state: owned, live: [edited] }));
    expect(plan.changes[0]).toMatchObject({ action: 'update', reason: 'drifted', desired: applied });
  });

  it('a changed file is an update that says nothing of drift when the remote is as observed', () => {
    const owned = state({ media, posts: { launch: { ...record('p1', applied, 'posts/launch.md'), observedHash } } });
    const plan = createPlan(planInput({ desired: [desired('launch', { ...applied, content: 'Line two' })], state: owned, live: [keptLive] }));
    expect(plan.changes[0]).toMatchObject({ action: 'update', reason: 'file-changed' });
    expect(plan.changes[0]!.details).toHaveLength(1);
  });

  it('a file that moved while neither side changed is a move, not an update', () => {
    const owned = state({ media, posts: { launch: { ...record('p1', applied, 'posts/launch.md'), observedHash } } });
    const plan = createPlan(planInput({ desired: [desired('launch', applied, { file: 'posts/2031/launch.md' })], state: owned, live: [keptLive] }));
    expect(plan.changes[0]).toMatchObject({ action: 'move', reason: 'renamed' });
  });
});

describe('a state written before observed shapes (the migration)', () => {
  const legacy = state({ media, posts: { launch: record('p1', applied, 'posts/launch.md') } });

  it('takes a live post that is the applied file, tidying aside, as unchanged: no spurious drift', () => {
    expect(legacy.posts.launch!.observedHash).toBeUndefined();
    const plan = createPlan(planInput({ desired: [desired('launch', applied)], state: legacy, live: [keptLive] }));
    expect(plan.changes.map((change) => [change.action, change.reason])).toEqual([['noop', 'up-to-date']]);
  });

  it('still sees a real change on the remote', () => {
    const plan = createPlan(planInput({ desired: [desired('launch', applied)], state: legacy, live: [{ ...keptLive, content: 'Someone else wrote this' }] }));
    expect(plan.changes[0]).toMatchObject({ action: 'update', reason: 'drifted' });
  });

  it('compares exactly when the file is not known (health checks) or changed', () => {
    const live = liveShape(keptLive, new Map([[mediaId(SHA_A), SHA_A], [mediaId(SHA_B), SHA_B]]));
    expect(changedOnRemote(legacy.posts.launch!, live)).toBe(true);
    expect(changedOnRemote(legacy.posts.launch!, live, { shape: applied, asApplied: true })).toBe(false);
    expect(changedOnRemote({ ...legacy.posts.launch!, observedHash: shapeHash(live) }, live)).toBe(false);
    expect(changedOnRemote(legacy.posts.launch!, applied)).toBe(false);
    // A media the service derived (unknown to the state) is no drift of a record from before, once.
    expect(changedOnRemote(legacy.posts.launch!, { ...live, media: [...live.media, 'id:thumb'] }, { shape: applied, asApplied: true })).toBe(false);
    expect(changedOnRemote(legacy.posts.launch!, { ...live, media: [SHA_A] }, { shape: applied, asApplied: true })).toBe(true);
  });
});

describe('tidiedShape', () => {
  it('keeps what a reader sees and drops what a service may tidy', () => {
    expect(tidiedText('a  \r\nb\t\r\ne\u0301\n\n')).toBe('a\nb\né');
    expect(tidiedText('a\rb')).toBe('a\nb');
    const options = tidiedShape(shape({ targets: [{ socialAccountId: PHOTO, options: { vidATags: ['a#B'], otherList: ['#X'], link: 'a  b' } as never }] })).targets[0]!.options;
    expect(options).toEqual({ vidATags: ['a#b'], otherList: ['#X'], link: 'a  b' });
    const tidied = tidiedShape(shape({ scheduledAt: '2031-03-01T08:00:59.999Z', media: [SHA_B, SHA_A], targets: [{ socialAccountId: PHOTO, options: { vidATitle: ' A   title ', vidATags: ['#Launch', 'tag'], link: 'x  ' } as never }] }));
    expect(tidied).toEqual({ content: 'Hello', scheduledAt: '2031-03-01T08:00:00.000Z', media: [SHA_A, SHA_B], targets: [{ socialAccountId: PHOTO, options: { vidATitle: 'A title', vidATags: ['launch', 'tag'], link: 'x' } }] });
  });
});
