import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calendarIdentity, StateSeal, unconfirmedRecords, type SealedKind } from '../../src/state/seal.js';
import { emptyProjectState } from '../../src/state/state-file.js';
import type { MediaRecord, PendingCreate, PendingUpload, PostRecord } from '../../src/state/types.js';
import { testdir } from '../helpers/testdir.js';

const scope = { apiKey: 'key-1', targetId: 'https://api.example.com/v1#demo', calendar: 'clients/acme' };
const seal = new StateSeal(scope);
const post: PostRecord = { postId: 'p1', file: 'posts/a.md', appliedHash: 'a'.repeat(64), remoteUpdatedAt: '2026-01-01T00:00:00.000Z', appliedAt: '2026-01-01T00:00:00.000Z' };
const pending: PendingCreate = { file: 'posts/b.md', idempotencyKey: 'psync-1', payload: { content: 'Hi', targets: [], mediaIds: [] }, shapeHash: 'b'.repeat(64), startedAt: '2026-01-01T00:00:00.000Z' };
const media: MediaRecord = { mediaId: 'm1', sizeBytes: 1, contentType: 'image/png', uploadedAt: '2026-01-01T00:00:00.000Z' };
const upload: PendingUpload = { mediaId: 'm2', partSizeBytes: 5, partCount: 2, startedAt: '2026-01-01T00:00:00.000Z' };

describe('StateSeal', () => {
  it('confirms a record it sealed, and none without a seal', () => {
    const sealed = seal.sealed('posts', 'a', post);
    expect(sealed.seal).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(seal.confirms('posts', 'a', sealed)).toBe(true);
    expect(seal.confirms('posts', 'a', post)).toBe(false);
    expect(seal.confirms('posts', 'a', { ...sealed, seal: 'x' })).toBe(false);
  });

  it('binds the key, the kind, what the record points at, the target, the calendar and the API key', () => {
    const sealed = seal.sealed('posts', 'a', post);
    expect(seal.confirms('posts', 'other', sealed)).toBe(false);
    expect(seal.confirms('posts', 'a', { ...sealed, postId: 'p2' })).toBe(false);
    for (const other of [{ apiKey: 'key-2' }, { targetId: 'local:demo' }, { calendar: '.' }]) {
      expect(new StateSeal({ ...scope, ...other }).confirms('posts', 'a', sealed), JSON.stringify(other)).toBe(false);
    }
    const sealedMedia = seal.sealed('media', 'a', media);
    expect(seal.confirms('uploads', 'a', { ...upload, seal: sealedMedia.seal })).toBe(false);
  });

  it('does not bind what a record says about the past: hashes, times and marks may change', () => {
    const sealed = seal.sealed('posts', 'a', post);
    expect(seal.confirms('posts', 'a', { ...sealed, appliedHash: 'c'.repeat(64), remoteUpdatedAt: '2027-01-01T00:00:00.000Z', reread: true, final: 'published' })).toBe(true);
  });

  it('binds a pending create to its Idempotency-Key and its payload, and a media record to its media id', () => {
    const sealedPending = seal.sealed('pending', 'b', pending);
    expect(seal.confirms('pending', 'b', sealedPending)).toBe(true);
    expect(seal.confirms('pending', 'b', { ...sealedPending, idempotencyKey: 'psync-2' })).toBe(false);
    expect(seal.confirms('pending', 'b', { ...sealedPending, payload: { ...pending.payload, content: 'Other' } })).toBe(false);
    const sealedMedia = seal.sealed('media', 'a'.repeat(64), media);
    expect(seal.confirms('media', 'a'.repeat(64), sealedMedia)).toBe(true);
    expect(seal.confirms('media', 'a'.repeat(64), { ...sealedMedia, mediaId: 'm9' })).toBe(false);
    const sealedUpload = seal.sealed('uploads', 'a'.repeat(64), upload);
    expect(seal.confirms('uploads', 'a'.repeat(64), { ...sealedUpload, mediaId: 'm9' })).toBe(false);
  });
});

describe('StateSeal across versions', () => {
  // Seals as apply wrote them before: a state file already in git must keep verifying.
  const written = {
    post: '3GhyX6dcLwxD2TgTQRrb-sunLdb-MDuD8uWRdsEkY40',
    pending: '7_5c1Y__IurztYegsgAoCtEj4oqQ6PL5DRCJ6j_42HU',
    pendingWithOptions: 'cs7nNZLDCJZNM6LJB6cJqKnr2av3O0Eso1G-P7ABaDw',
    media: 'vp8NfBL8BIg9la_wStKs-39Cg5K0p2hu2f9fy5ZhPIY',
    upload: '4X1PsgSDGZWcgF5RgtuCcKHPqis5hPdKWHm2mjPCdZ0',
  };
  // Keys not in sorted order inside the payload: its hash is of the canonical (sorted) text.
  const pendingWithOptions: PendingCreate = { ...pending, payload: { content: 'Hi', targets: [{ socialAccountId: 'acc-1', options: { vidATitle: 'T', shareToFeed: true } }], mediaIds: ['m1'] } };

  it('gives and confirms the same seals as before, for every kind of record', () => {
    const cases: [SealedKind, string, PostRecord | PendingCreate | MediaRecord | PendingUpload, string][] = [
      ['posts', 'a', post, written.post],
      ['pending', 'b', pending, written.pending],
      ['pending', 'b', pendingWithOptions, written.pendingWithOptions],
      ['media', 'a'.repeat(64), media, written.media],
      ['uploads', 'c'.repeat(64), upload, written.upload],
    ];
    for (const [kind, key, record, sealText] of cases) {
      expect(seal.of(kind, key, record), kind).toBe(sealText);
      expect(seal.confirms(kind, key, { ...record, seal: sealText }), kind).toBe(true);
    }
  });

  it('refuses a seal that is not exactly the text, even one that decodes to the same bytes', () => {
    const near = [
      `${written.post.slice(0, -1)}1`, // the last character's unused bits: the same 32 bytes once decoded
      `${written.post}=`,
      written.post.slice(0, -1),
      `${written.post.slice(0, -1)}\u0100`,
      `${written.post.slice(0, -1)}\ud800`,
      `${written.post.slice(0, 20)}+${written.post.slice(21)}`,
      written.post.toLowerCase(),
      '',
    ];
    expect(Buffer.from(near[0] as string, 'base64url')).toEqual(Buffer.from(written.post, 'base64url'));
    for (const sealText of near) expect(seal.confirms('posts', 'a', { ...post, seal: sealText }), JSON.stringify(sealText)).toBe(false);
  });
});

describe('unconfirmedRecords', () => {
  it('names, by kind, the keys whose record has no valid seal', () => {
    const section = {
      ...emptyProjectState({ apiUrl: 'https://api.example.com/v1', projectId: 'demo' }),
      posts: { ok: seal.sealed('posts', 'ok', post), bare: post, moved: { ...seal.sealed('posts', 'moved', post), postId: 'p9' } },
      pending: { ok: seal.sealed('pending', 'ok', pending), bare: pending },
      media: { ['a'.repeat(64)]: seal.sealed('media', 'a'.repeat(64), media), ['b'.repeat(64)]: media },
      uploads: { ['c'.repeat(64)]: upload },
    };
    const unconfirmed = unconfirmedRecords(section, seal);
    expect([...unconfirmed.posts].sort()).toEqual(['bare', 'moved']);
    expect([...unconfirmed.pending]).toEqual(['bare']);
    expect([...unconfirmed.media]).toEqual(['b'.repeat(64)]);
    expect([...unconfirmed.uploads]).toEqual(['c'.repeat(64)]);
  });

  it('names none for a seal that checks nothing (a read-only key never sealed a record)', () => {
    const section = { ...emptyProjectState({ apiUrl: 'https://api.example.com/v1', projectId: 'demo' }), posts: { bare: post }, pending: { bare: pending }, media: { ['b'.repeat(64)]: media }, uploads: { ['c'.repeat(64)]: upload } };
    const unchecked = unconfirmedRecords(section, new StateSeal({ ...scope, checks: false }));
    expect([unchecked.posts, unchecked.pending, unchecked.media, unchecked.uploads].map((keys) => [...keys])).toEqual([[], [], [], []]);
  });
});

describe('calendarIdentity', () => {
  it('is the folder relative to the repository root, `.` at the root and outside any repository', async () => {
    const repo = await testdir({ 'clients/acme/postsync.yaml': '', 'postsync.yaml': '' });
    expect(calendarIdentity(join(repo, 'clients/acme'))).toBe('.');
    await mkdir(join(repo, '.git'));
    expect(calendarIdentity(join(repo, 'clients/acme'))).toBe('clients/acme');
    expect(calendarIdentity(repo)).toBe('.');
  });
});
