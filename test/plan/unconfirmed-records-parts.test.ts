import { describe, expect, it } from 'vitest';
import { blockShared, blockUnconfirmed, NONE_UNCONFIRMED, sharedPostRecords, trustedState, unconfirmedBlocked } from '../../src/plan/unconfirmed-records.js';
import type { Change } from '../../src/plan/types.js';
import { SHA_A, SHA_B, looseChange, mediaState, record, shape, state } from '../helpers/fixtures.js';

const desired = shape({ content: 'Hello' });
const update = looseChange({ action: 'update', key: 'new', fromKey: 'old', file: 'posts/new.md', postId: 'p1', details: [{ code: 'file-changed', file: 'posts/new.md', fields: ['content'] }], desired, liveUpdatedAt: '2026-01-01T00:00:00.000Z', occurrence: { of: 'new', date: '2027-01-04' } });

describe('the parts of unconfirmed-record blocking', () => {
  it('blocks a change resting on an unconfirmed record, keeping what names it and nothing it would do', () => {
    expect(blockUnconfirmed(update, { ...NONE_UNCONFIRMED, posts: new Set(['old']) })).toEqual({
      action: 'blocked',
      reason: 'unconfirmed-record',
      key: 'new',
      fromKey: 'old',
      file: 'posts/new.md',
      postId: 'p1',
      desired,
      liveUpdatedAt: '2026-01-01T00:00:00.000Z',
      occurrence: { of: 'new', date: '2027-01-04' },
      details: [{ code: 'unconfirmed-record', key: 'old', postId: 'p1', pending: false }],
    });
    const bare = looseChange({ action: 'create', key: 'x', file: 'posts/x.md', postId: null, details: [{ code: 'interrupted-create' }] });
    expect(blockUnconfirmed(bare, { ...NONE_UNCONFIRMED, pending: new Set(['x']) })).toStrictEqual({
      action: 'blocked', reason: 'unconfirmed-record', key: 'x', file: 'posts/x.md', postId: null,
      details: [{ code: 'unconfirmed-record', key: 'x', postId: null, pending: true }],
    });
    expect(blockUnconfirmed(looseChange({ ...update, postId: null }), { ...NONE_UNCONFIRMED, posts: new Set(['new']) }).details).toEqual([{ code: 'unconfirmed-record', key: 'new', postId: null, pending: false }]);
    expect(blockUnconfirmed(update, NONE_UNCONFIRMED)).toBe(update);
  });

  it('counts the changes blocked for an unconfirmed record, and only those', () => {
    const blocked = blockUnconfirmed(update, { ...NONE_UNCONFIRMED, posts: new Set(['old']) });
    const otherBlocked = looseChange({ ...update, action: 'blocked', reason: 'not-editable', details: [{ code: 'not-editable', status: 'published', verb: 'edited' }] });
    const reasonNotBlocked = looseChange({ ...update, reason: 'unconfirmed-record' });
    const shared = blockShared(update, new Map([['old', ['old', 'other']]]));
    expect(shared).toMatchObject({ action: 'blocked', reason: 'shared-record' });
    expect(unconfirmedBlocked({ changes: [blocked, otherBlocked, reasonNotBlocked, update, shared] })).toBe(2);
  });

  it('leaves out media and upload records without their seal, and keeps the state as it is when there are none', () => {
    const upload = { mediaId: 'm9', partSizeBytes: 1, partCount: 1, startedAt: '2026-01-01T00:00:00.000Z' };
    const section = state({ media: mediaState(SHA_A, SHA_B), uploads: { [SHA_A]: upload, [SHA_B]: upload } });
    expect(trustedState(section, NONE_UNCONFIRMED)).toBe(section);
    expect(Object.keys(trustedState(section, { ...NONE_UNCONFIRMED, media: new Set([SHA_A]) }).media)).toEqual([SHA_B]);
    const trusted = trustedState(section, { ...NONE_UNCONFIRMED, uploads: new Set([SHA_B]) });
    expect([Object.keys(trusted.media).sort(), Object.keys(trusted.uploads)]).toEqual([[SHA_A, SHA_B].sort(), [SHA_A]]);
  });

  it('names, for each post record sharing its post, every key on that post in the order of the state, and no other record', () => {
    const on = (postId: string, file: string) => record(postId, desired, file);
    const posts = { a: on('p1', 'posts/a.md'), b: on('p2', 'posts/b.md'), c: on('p1', 'posts/c.md'), d: on('p3', 'posts/d.md'), e: on('p1', 'posts/e.md'), f: on('p3', 'posts/f.md') };
    expect([...sharedPostRecords({ posts })]).toEqual([
      ['a', ['a', 'c', 'e']],
      ['c', ['a', 'c', 'e']],
      ['e', ['a', 'c', 'e']],
      ['d', ['d', 'f']],
      ['f', ['d', 'f']],
    ]);
    expect(sharedPostRecords({ posts: { a: on('p1', 'posts/a.md'), b: on('p2', 'posts/b.md') } }).size).toBe(0);
  });

  it('leaves a change blocked for another reason as it is, even on a shared record', () => {
    const blocked = blockUnconfirmed(update, { ...NONE_UNCONFIRMED, posts: new Set(['old']) });
    expect(blockShared(blocked, new Map([['old', ['old', 'other']]]))).toBe(blocked);
    expect(blockShared(update, new Map())).toBe(update);
  });
});
