import { describe, expect, it } from 'vitest';
import { shapeHash } from '../../src/content/shape-hash.js';
import type { PostShape } from '../../src/content/types.js';
import { matchPendingCreates } from '../../src/plan/pending-matches.js';
import { livePostsById, planContext } from '../../src/plan/plan-context.js';
import { createPlan } from '../../src/plan/planner.js';
import { removedKeptAsDrafts } from '../../src/plan/removed-changes.js';
import type { Post } from '../../src/api/types.js';
import type { PendingCreate, ProjectState } from '../../src/state/types.js';
import { PHOTO, desired, livePost, planInput, planOf, looseChange, record, shape, state } from '../helpers/fixtures.js';

/** Where an interrupted create's post is found on the remote, so the create is never sent twice. */

const draft = shape({ content: 'Launch day' });

/** An interrupted create of `key` whose payload makes `made` (a draft). */
function pending(key: string, made: PostShape = draft): PendingCreate {
  return {
    file: `posts/${key}.md`,
    idempotencyKey: `psync-${key}`,
    payload: { content: made.content, targets: made.targets.map((target) => ({ socialAccountId: target.socialAccountId, ...(Object.keys(target.options).length === 0 ? {} : { options: target.options }) })), mediaIds: [] },
    shapeHash: shapeHash(made),
    startedAt: '2026-01-01T00:00:00.000Z',
  };
}

function matches(section: ProjectState, live: Post[]): [string, string][] {
  const context = planContext({ state: section, live: livePostsById(live), accounts: new Map(), prune: false });
  return [...matchPendingCreates(section, livePostsById(live), context)].map(([key, post]) => [key, post.id]);
}

describe('matchPendingCreates', () => {
  it('finds nothing without a pending create, whatever the remote shows', () => {
    expect(matches(state(), [livePost('p1', draft)])).toEqual([]);
  });

  it('takes the post a pending create made, also once it was scheduled on the remote', () => {
    expect(matches(state({ pending: { launch: pending('launch') } }), [livePost('p1', { ...draft, scheduledAt: '2026-04-01T09:00:00.000Z' })])).toEqual([['launch', 'p1']]);
  });

  it('never takes a post a state record owns, nor one that is not the draft of the payload', () => {
    const section = state({ pending: { launch: pending('launch') }, posts: { other: record('p-owned', draft, 'posts/other.md') } });
    expect(matches(section, [livePost('p-owned', draft), livePost('p-other', shape({ content: 'Something else' }))])).toEqual([]);
  });

  it('never takes a post that differs in an option the payload sets', () => {
    const withFormat = shape({ content: 'Launch day', targets: [{ socialAccountId: PHOTO, options: { format: 'feed' } }] });
    const remote = shape({ content: 'Launch day', targets: [{ socialAccountId: PHOTO, options: { format: 'story' } }] });
    expect(matches(state({ pending: { launch: pending('launch', withFormat) } }), [livePost('p1', remote)])).toEqual([]);
  });

  it('takes a post that holds a value for an option the payload leaves unset (the service\'s default)', () => {
    const remote = shape({ content: 'Launch day', targets: [{ socialAccountId: PHOTO, options: { format: 'feed' } }] });
    expect(matches(state({ pending: { launch: pending('launch') } }), [livePost('p1', remote)])).toEqual([['launch', 'p1']]);
  });

  it('pairs twins in key order with posts oldest first, then by id, whatever order the listing has', () => {
    const section = state({ pending: { b: pending('b'), a: pending('a'), c: pending('c') } });
    const live = [
      livePost('p-late', draft, { createdAt: '2026-01-03T00:00:00.000Z' }),
      livePost('p-y', draft),
      livePost('p-x', draft),
    ];
    expect(matches(section, live)).toEqual([['a', 'p-x'], ['b', 'p-y'], ['c', 'p-late']]);
  });

  it('gives one post to one create only: two payloads that both fit a post never share it', () => {
    // `wide` leaves format to the service, `narrow` sets it: the one post fits both.
    const narrow = shape({ content: 'Launch day', targets: [{ socialAccountId: PHOTO, options: { format: 'feed' } }] });
    const section = state({ pending: { narrow: pending('narrow', narrow), wide: pending('wide') } });
    const found = matches(section, [livePost('p1', narrow)]);
    expect(found).toHaveLength(1);
    expect(found[0]![1]).toBe('p1');
  });
});

describe('createPlan: a pending create whose file is gone, and its post on the remote', () => {
  it('names the post it made, so apply takes it instead of sending the create again', () => {
    const made = livePost('p1', draft, { updatedAt: '2026-01-05T00:00:00.000Z' });
    const plan = createPlan(planInput({ state: state({ pending: { launch: pending('launch') } }), live: [made] }));
    expect(plan.changes).toEqual([
      expect.objectContaining({
        action: 'unschedule', reason: 'file-removed', key: 'launch', postId: 'p1', liveUpdatedAt: '2026-01-05T00:00:00.000Z', resumesPending: true,
        details: [{ code: 'pending-removed', file: 'posts/launch.md', prune: false }, { code: 'made-post-found', postId: 'p1' }],
      }),
    ]);
  });
});

describe('removedKeptAsDrafts', () => {
  const change = (action: 'noop' | 'unschedule' | 'delete', reason: string) => looseChange({ action, reason, key: reason, file: null, postId: 'p', details: [] });

  it('counts the noops whose file or occurrence is gone, and nothing else', () => {
    const plan = planOf([
      change('noop', 'file-removed'),
      change('noop', 'occurrence-removed'),
      change('noop', 'up-to-date'),
      change('noop', 'published-kept'),
      change('unschedule', 'file-removed'),
      change('delete', 'file-removed'),
      change('delete', 'occurrence-removed'),
    ]);
    expect(removedKeptAsDrafts(plan)).toBe(2);
  });
});

describe('createPlan: options a file leaves unset, in the fields an update names', () => {
  const withDefault = (content: string) => shape({ content, targets: [{ socialAccountId: PHOTO, options: { format: 'feed' } }] });
  const owned = (extra: { reread?: true } = {}) => state({ posts: { launch: { ...record('p1', draft, 'posts/launch.md'), ...extra } } });
  const fieldsOf = (section: ProjectState, file: PostShape, remote: PostShape) => {
    const change = createPlan(planInput({ desired: [desired('launch', file)], state: section, live: [livePost('p1', remote, { updatedAt: '2026-01-09T00:00:00.000Z' })] })).changes[0]!;
    return { action: change.action, reason: change.reason, fields: 'fields' in change ? change.fields?.map((move) => move.field) : undefined };
  };

  it('a drift names only what the remote changed, not the service\'s default for an option the file leaves unset', () => {
    expect(fieldsOf(owned(), draft, withDefault('Edited on the web'))).toEqual({ action: 'update', reason: 'drifted', fields: ['content'] });
  });

  it('a changed file names the default it will clear too: an update sends the targets whole', () => {
    expect(fieldsOf(owned(), shape({ content: 'New text' }), withDefault('Launch day'))).toEqual({ action: 'update', reason: 'file-changed', fields: ['content', `targets[${PHOTO}].options.format`] });
  });

  it('a state entry merged from two branches names what differs, the service\'s defaults aside', () => {
    expect(fieldsOf(owned({ reread: true }), shape({ content: 'New text' }), withDefault('Launch day'))).toEqual({ action: 'update', reason: 'merged-record', fields: ['content'] });
  });
});
