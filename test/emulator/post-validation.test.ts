import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { ACME, inOneHour, pngBytes, postBody, testFixture, uploadMedia } from './support.js';

const emulator = useEmulator({ fixture: testFixture() });
const create = (body: unknown, key = 'acme-full') => emulator().api('POST', '/posts', { key, body });

describe('create body limits', () => {
  it('accepts an empty draft and fills targets from the account', async () => {
    const empty = await create({ content: '', targets: [], mediaIds: [] });
    expect(empty.status).toBe(201);
    expect(empty.body.data).toMatchObject({ status: 'draft', scheduledAt: null, targets: [], media: [] });
    expect(empty.body.data.updatedAt).toBe(empty.body.data.createdAt);

    const options = { vidATitle: 'Launch', vidATags: ['a', 'b'], vidAMadeForKids: false };
    const created = await create({
      content: 'shared',
      targets: [
        { socialAccountId: ACME.video, options, contentOverride: 'for video' },
        { socialAccountId: ACME.short.toUpperCase(), options: { shortBAllowDuet: true } },
        { socialAccountId: ACME.photo },
      ],
      mediaIds: [],
    });
    expect(created.status).toBe(201);
    expect(created.body.data.targets).toEqual([
      { socialAccountId: ACME.video, platform: 'vidA', handle: '@acme.video', contentOverride: 'for video', options: { ...options, vidAPrivacy: 'private' }, status: 'pending' },
      { socialAccountId: ACME.short, platform: 'shortB', handle: '@acme.short', options: { shortBAllowDuet: true, shortBMode: 'direct', shortBPrivacy: 'PUBLIC_TO_EVERYONE' }, status: 'pending' },
      { socialAccountId: ACME.photo, platform: 'photoC', handle: '@acme.photo', options: {}, status: 'pending' },
    ]);
    const fetched = await emulator().api('GET', `/posts/${created.body.data.id}`, { key: 'acme-full' });
    expect(fetched.body.data).toEqual(created.body.data);
  });

  it('lists every violated limit at once', async () => {
    const response = await create({
      content: 'x'.repeat(10_001),
      targets: Array.from({ length: 21 }, () => ({ socialAccountId: randomUUID() })),
      mediaIds: [...Array.from({ length: 10 }, () => randomUUID()), 'not-a-uuid'],
      surprise: true,
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_failed');
    const messages: string[] = response.body.error.message;
    expect(messages).toEqual(
      expect.arrayContaining([
        'surprise is not a known field (allowed: content, targets, mediaIds, scheduledAt)',
        'content must be at most 10000 characters (got 10001)',
        'targets must have at most 20 items (got 21)',
        'mediaIds must have at most 10 items (got 11)',
        'mediaIds[10] must be a uuid',
      ]),
    );
    // The accounts of the 21 targets are unknown too: all reported, not just the first.
    expect(messages.filter((m) => m.includes('is not an account of this project'))).toHaveLength(21);
  });

  it('counts content in characters (code points), not UTF-16 units', async () => {
    expect((await create(postBody(ACME.photo, { content: '😀'.repeat(10_000) }))).status).toBe(201);
    expect((await create(postBody(ACME.photo, { content: 'x'.repeat(10_000) }))).status).toBe(201);
  });

  it('requires content, targets and mediaIds on create and checks types', async () => {
    const missing = await create({});
    expect(missing.body.error.message).toEqual(['content is required', 'targets is required', 'mediaIds is required']);
    const types = await create({ content: 1, targets: {}, mediaIds: 'x', scheduledAt: 5 });
    expect(types.body.error.message).toEqual([
      'content must be a string',
      'targets must be an array',
      'mediaIds must be an array',
      expect.stringContaining('scheduledAt must be null or an RFC 3339 date-time'),
    ]);
    expect((await create([1, 2])).body.error.message).toEqual(['body must be a JSON object']);
  });

  it('checks targets: uuids, duplicates, unknown fields, options per platform, response-only fields', async () => {
    const response = await create({
      content: 'x',
      mediaIds: [],
      targets: [
        { socialAccountId: 'abc' },
        { socialAccountId: ACME.photo, options: { format: 'poster', link: 5, vidATitle: 'no' }, extra: 1 },
        { socialAccountId: ACME.photo },
        { socialAccountId: ACME.video, options: { vidAPrivacy: 'public', vidATags: 'one' } },
        { socialAccountId: ACME.short, options: [] },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toEqual(
      expect.arrayContaining([
        'targets[0].socialAccountId must be a uuid',
        expect.stringContaining('targets[1].extra is not a known field'),
        `targets[2].socialAccountId ${ACME.photo} appears more than once`,
        'targets[4].options must be an object',
        'targets[1].options.format must be one of feed, story, reel',
        'targets[1].options.link must be a string',
        expect.stringContaining('targets[1].options.vidATitle is not an option of photoC accounts'),
        'targets[3].options.vidAPrivacy is response-only and cannot be sent',
        'targets[3].options.vidATags must be an array of strings',
      ]),
    );
    // A required option is a publishing rule: a draft may lack it (see publish-rules.test.ts).
    expect(response.body.error.message.join('\n')).not.toContain('required');
  });

  it('requires mediaIds to be completed media of the project', async () => {
    const ticket = await emulator().api('POST', '/media/uploads', { key: 'acme-full', body: { kind: 'image', contentType: 'image/png', sizeBytes: 100, fileName: 'a.png' } });
    const pendingId = ticket.body.data.media.id;
    const unknown = randomUUID();
    const response = await create({ content: 'x', targets: [], mediaIds: [pendingId, unknown] });
    expect(response.body.error.message).toEqual([
      `mediaIds[0] ${pendingId} is not a completed upload (call POST /media/${pendingId}/complete first)`,
      `mediaIds[1] ${unknown} is not a media object of this project`,
    ]);
    const ready = await uploadMedia(emulator(), pngBytes(10, 20), { kind: 'image', contentType: 'image/png' }, 'acme-full');
    const ok = await create({ content: 'x', targets: [], mediaIds: [ready] });
    expect(ok.status).toBe(201);
    expect(ok.body.data.media).toEqual([expect.objectContaining({ id: ready, kind: 'image', sourceAvailable: true, contentType: 'image/png', width: 10, height: 20 })]);
  });
});

describe('scheduledAt', () => {
  it('accepts RFC 3339 with Z or an offset, in the future, and normalizes to UTC', async () => {
    const media = await uploadMedia(emulator(), pngBytes(4, 4), { kind: 'image', contentType: 'image/png' }, 'acme-full');
    const at = new Date(Date.now() + 2 * 86_400_000);
    const local = `${at.toISOString().slice(0, 10)}T10:30:00+02:00`;
    const response = await create({ ...postBody(ACME.photo, { mediaIds: [media] }), scheduledAt: local });
    expect(response.status).toBe(201);
    expect(response.body.data.status).toBe('scheduled');
    expect(response.body.data.scheduledAt).toBe(new Date(local).toISOString());
  });

  it('refuses dates without an offset, impossible dates and the past', async () => {
    for (const bad of ['2031-01-01T10:00:00', '2031-01-01', '2031-02-30T10:00:00Z', '2031-01-01T25:00:00Z', 'tomorrow']) {
      const response = await create(postBody(ACME.photo, { scheduledAt: bad }));
      expect(response.status, bad).toBe(400);
      expect(response.body.error.message[0]).toContain('scheduledAt must be null or an RFC 3339 date-time');
    }
    const past = await create(postBody(ACME.photo, { scheduledAt: '2020-01-01T00:00:00Z' }));
    expect(past.body.error.message).toEqual([expect.stringContaining('scheduledAt must be in the future')]);
  });

  it('checks the per-account rules when a post is scheduled, not for drafts', async () => {
    const draft = await create(postBody(ACME.photo));
    expect(draft.status).toBe(201);
    const scheduled = await create({
      content: 'y'.repeat(2201),
      targets: [{ socialAccountId: ACME.photo }, { socialAccountId: ACME.unavailable }, { socialAccountId: ACME.short, contentOverride: '' }],
      mediaIds: [],
      scheduledAt: inOneHour(),
    });
    expect(scheduled.status).toBe(400);
    expect(scheduled.body.error.message).toEqual([
      'targets[0] (@acme.photo, photoC): caption is 2201 characters long, at most 2200 allowed',
      'targets[0] (@acme.photo, photoC): needs at least 1 media item(s), got 0',
      'targets[1] (@acme.gone, photoC): account unavailable: token revoked by the account owner',
      'targets[1] (@acme.gone, photoC): caption is 2201 characters long, at most 2200 allowed',
      'targets[1] (@acme.gone, photoC): needs at least 1 media item(s), got 0',
      'targets[2] (@acme.short, shortB): a caption is required',
      'targets[2] (@acme.short, shortB): needs at least 1 media item(s), got 0',
    ]);
    const noTargets = await create({ content: 'x', targets: [], mediaIds: [], scheduledAt: inOneHour() });
    expect(noTargets.body.error.message).toEqual(['a scheduled post needs at least one target']);
  });
});

describe('capabilities', () => {
  it('returns distinct rules for photoC, vidA and shortB, and availability', async () => {
    const get = async (id: string) => (await emulator().api('GET', `/accounts/${id}/capabilities`, { key: 'acme-read' })).body.data;
    const [photo, video, short, gone] = await Promise.all([get(ACME.photo), get(ACME.video), get(ACME.short), get(ACME.unavailable)]);
    expect(photo).toMatchObject({ account: { id: ACME.photo, platform: 'photoC', status: 'active' }, supported: true, available: true });
    expect(photo.rules.caption).toEqual({ maxLength: 2200, lengthUnit: 'characters', requiredExcept: 'media' });
    expect(photo.rules.attachments).toMatchObject({ min: 1, max: 10 });
    expect(photo.rules.media.images).toEqual({ contentTypes: ['image/jpeg', 'image/png', 'image/webp'], maxBytes: 8 * 1024 * 1024 });
    expect(video.rules.options.vidATitle).toEqual({ type: 'string', maxLength: 100, required: true });
    expect(video.rules.media.videos).toMatchObject({ maxBytes: 2 * 1024 ** 3, minDurationSeconds: 1, maxDurationSeconds: 43200 });
    expect(video.rules.media.images.contentTypes).toEqual([]);
    expect(short.rules.caption.lengthUnit).toBe('utf16');
    expect(short.rules.maxShortDurationSeconds).toBe(180);
    expect(short.rules.media.videos).toMatchObject({ maxBytes: 500 * 1024 * 1024, minDurationSeconds: 3, maxDurationSeconds: 600 });
    expect(gone).toMatchObject({ available: false, reason: 'token revoked by the account owner' });
    expect(photo.requiredPermissions.schedule).toEqual(['posts-write', 'posts-publish']);
    const malformed = await emulator().api('GET', '/accounts/nope/capabilities', { key: 'acme-read' });
    expect(malformed.status).toBe(400);
  });

  it('pages accounts with limit and after', async () => {
    const first = await emulator().api('GET', '/accounts?limit=4', { key: 'acme-read' });
    expect(first.body.data.items).toHaveLength(4);
    expect(first.body.data.nextCursor).toBe(ACME.failing);
    const second = await emulator().api('GET', `/accounts?limit=4&after=${first.body.data.nextCursor}`, { key: 'acme-read' });
    expect(second.body.data.items.map((a: any) => a.id)).toEqual([ACME.throttled, ACME.unavailable]);
    expect(second.body.data.nextCursor).toBeNull();
    expect(second.body.data.items[0]).toEqual({ id: ACME.throttled, platform: 'photoC', handle: '@acme.throttled', status: 'active' });
    expect((await emulator().api('GET', '/accounts?limit=0', { key: 'acme-read' })).status).toBe(400);
  });
});
