import { describe, expect, it } from 'vitest';
import type { Capabilities, Post } from '../../src/api/types.js';
import { accountAvailability } from '../../src/plan/account-availability.js';
import { untouchedSinceApply } from '../../src/plan/desired-changes.js';
import { isFinalStatus } from '../../src/plan/final-status.js';
import { planPosts } from '../../src/plan/plan-posts.js';
import { createPlan } from '../../src/plan/planner.js';
import { stateSectionHash } from '../../src/state/state-file.js';
import { SHA_A, desired, livePost, mediaId, planInput, record, shape, state, PHOTO, TARGET } from '../helpers/fixtures.js';

// Small planning rules, each stated on its own.

const applied = shape({ content: 'As applied' });

describe('accountAvailability: an account takes posts only when it is available and its platform supported', () => {
  const capabilities = (available: boolean, supported: boolean, reason?: string) => ({ available, supported, ...(reason === undefined ? {} : { reason }) }) as Capabilities;

  it('is available only when both hold, and keeps the service\'s reason', () => {
    const accounts = accountAvailability(new Map([
      ['ok', capabilities(true, true)],
      ['unsupported', capabilities(true, false, 'platform not supported')],
      ['down', capabilities(false, true, 'token expired')],
    ]));
    expect(Object.fromEntries(accounts)).toEqual({
      ok: { available: true, reason: undefined },
      unsupported: { available: false, reason: 'platform not supported' },
      down: { available: false, reason: 'token expired' },
    });
  });
});

describe('isFinalStatus: a post postsync never touches again', () => {
  it('is true for published only: any other status, named or not, is read again', () => {
    expect(isFinalStatus('published')).toBe(true);
    for (const status of ['draft', 'scheduled', 'failed', 'publishing', '']) expect(isFinalStatus(status), status).toBe(false);
  });
});

describe('a state entry merged from two branches (reread)', () => {
  const merged = { ...record('p1', applied, 'posts/launch.md'), reread: true as const };

  it('is never taken as untouched, even when its hash and updatedAt say so', () => {
    const post = { file: 'posts/launch.md', shapeHash: merged.appliedHash };
    expect(untouchedSinceApply(post, merged, { updatedAt: merged.remoteUpdatedAt })).toBe(false);
    expect(untouchedSinceApply(post, { ...merged, reread: undefined }, { updatedAt: merged.remoteUpdatedAt })).toBe(true);
  });

  it('is updated from the file when the remote differs, since the applied hash says nothing', () => {
    // The file still has the recorded hash, which would otherwise make the difference remote drift.
    const section = state({ posts: { launch: merged } });
    const plan = createPlan(planInput({ desired: [desired('launch', applied)], state: section, live: [livePost('p1', shape({ content: 'Edited on the other branch' }))] }));
    expect(plan.changes.map((change) => [change.action, change.details, change.drift])).toEqual([
      ['update', [{ code: 'merged-record', file: 'posts/launch.md', fields: ['content'] }], undefined],
    ]);
  });
});

describe('createPlan: a rename is never also an adoption', () => {
  it('moves the owned post to the renamed file and leaves an identical orphan alone', () => {
    const section = state({ posts: { old: record('p1', applied, 'posts/old.md') } });
    const plan = createPlan(planInput({ desired: [desired('new', applied)], state: section, live: [livePost('p1', applied), livePost('p-twin', applied)] }));
    expect(plan.changes.map((change) => [change.action, change.key, change.postId])).toEqual([['move', 'new', 'p1']]);
  });
});

describe('planPosts', () => {
  it('decides whether a post is unchanged from the post itself: as applied on both sides, touched on the remote, or changed there', () => {
    const section = state({ posts: { launch: record('p1', applied, 'posts/launch.md') } });
    const actions = (live: Post) => planPosts(planInput({ desired: [desired('launch', applied)], state: section, live: [live] })).changes.map((change) => change.action);
    expect(actions(livePost('p1', applied))).toEqual(['noop']);
    expect(actions(livePost('p1', applied, { updatedAt: '2026-02-01T00:00:00.000Z' }))).toEqual(['noop']);
    expect(actions(livePost('p1', applied, { updatedAt: '2026-02-01T00:00:00.000Z', content: 'Edited on the remote' }))).toEqual(['update']);
  });

  it('passes the media learned from the service on to the planner, so an orphan with them is adopted', () => {
    const withMedia = shape({ media: [SHA_A] });
    const input = { desired: [desired('launch', withMedia)], live: [livePost('p1', withMedia)] };
    expect(planPosts(planInput({ ...input, mediaSha256s: new Map([[mediaId(SHA_A), SHA_A]]) })).changes.map((change) => [change.action, change.mediaRecords?.length])).toEqual([['adopt', 1]]);
    // Its media unknown by content, the orphan may or may not be the file: held, never created.
    expect(planPosts(planInput({ ...input, mediaSha256s: new Map() })).changes.map((change) => [change.action, change.reason])).toEqual([['blocked', 'adopt-uncertain']]);
  });
});
