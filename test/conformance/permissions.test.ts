import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../src/api/error-codes.js';
import type { Permission } from '../../src/api/types.js';
import type { ApiClient, Reply } from './client.js';
import { expectError } from './client.js';
import { ACCOUNTS, KEYS, keyWithout } from './fixture.js';
import { createPost, draftBody, getPost, later, uploadImage } from './flows.js';
import { useConformance } from './harness.js';

/**
 * The permission rules: the spec's (capabilities: accounts-read; GET post: posts-read; PATCH:
 * posts-write, plus posts-publish to edit a scheduled post or set a non-null scheduledAt;
 * DELETE: posts-delete; multipart: media-write; scheduling needs posts-publish) and the
 * documented choices for the endpoints whose permission the spec does not show. Each case uses a
 * key that has every permission but the one under test, so only that permission can be the cause.
 */
const emulator = useConformance();

interface Case {
  permission: Permission;
  what: string;
  call(api: ApiClient, ids: Ids): Promise<Reply>;
}

interface Ids {
  /** Emulator time when the ids were prepared. */
  now: string;
  image: string;
  draft: string;
  scheduled: string;
  media: string;
  multipartMedia: string;
}

async function prepare(): Promise<Ids> {
  const api = emulator().api();
  const image = await uploadImage(emulator());
  const now = await emulator().control.now();
  // Publishable (a target and an image), so that scheduling it can only fail for the permission.
  const publishable = { targets: [{ socialAccountId: ACCOUNTS.photo }], mediaIds: [image.id] };
  const draft = await createPost(api, draftBody(publishable));
  const scheduled = await createPost(api, draftBody({ ...publishable, scheduledAt: later(now, 86_400) }));
  const video = await api.post('/media/uploads', { kind: 'video', contentType: 'video/mp4', sizeBytes: 40 * 1024 * 1024, fileName: 'big.mp4' });
  expect(video.status).toBe(201);
  const single = await api.post('/media/uploads', { kind: 'image', contentType: 'image/png', sizeBytes: 100, fileName: 'p.png' });
  return { now, image: image.id, draft: draft.id, scheduled: scheduled.id, media: single.body.data.media.id, multipartMedia: video.body.data.media.id };
}

const cases: Case[] = [
  { permission: 'accounts-read', what: 'GET /accounts/{accountId}/capabilities', call: (api) => api.get('/accounts/{accountId}/capabilities', { params: { accountId: ACCOUNTS.photo } }) },
  { permission: 'accounts-read', what: 'GET /accounts (choice)', call: (api) => api.get('/accounts') },
  { permission: 'posts-read', what: 'GET /posts/{id}', call: (api, ids) => api.get('/posts/{id}', { params: { id: ids.draft } }) },
  { permission: 'posts-read', what: 'GET /posts (choice)', call: (api) => api.get('/posts') },
  { permission: 'posts-read', what: 'GET /analytics/posts (choice)', call: (api) => api.get('/analytics/posts') },
  { permission: 'posts-write', what: 'PATCH /posts/{id}', call: (api, ids) => api.patch('/posts/{id}', { content: 'edited' }, { params: { id: ids.draft } }) },
  { permission: 'posts-write', what: 'POST /posts (choice)', call: (api) => api.post('/posts', draftBody()) },
  {
    permission: 'posts-publish',
    what: 'PATCH a draft with a non-null scheduledAt',
    call: (api, ids) => api.patch('/posts/{id}', { scheduledAt: later(ids.now, 86_400 * 30) }, { params: { id: ids.draft } }),
  },
  { permission: 'posts-publish', what: 'PATCH the content of a scheduled post', call: (api, ids) => api.patch('/posts/{id}', { content: 'edited' }, { params: { id: ids.scheduled } }) },
  { permission: 'posts-publish', what: 'PATCH a scheduled post back to draft', call: (api, ids) => api.patch('/posts/{id}', { scheduledAt: null }, { params: { id: ids.scheduled } }) },
  {
    permission: 'posts-publish',
    what: 'POST /posts with a scheduledAt (scheduling)',
    call: (api, ids) =>
      api.post('/posts', draftBody({ targets: [{ socialAccountId: ACCOUNTS.photo }], mediaIds: [ids.image], scheduledAt: later(ids.now, 86_400 * 30) })),
  },
  { permission: 'posts-delete', what: 'DELETE /posts/{id}', call: (api, ids) => api.delete('/posts/{id}', { params: { id: ids.draft } }) },
  { permission: 'media-write', what: 'POST /media/{id}/multipart', call: (api, ids) => api.post('/media/{id}/multipart', { operation: 'list' }, { params: { id: ids.multipartMedia } }) },
  {
    permission: 'media-write',
    what: 'POST /media/uploads (choice)',
    call: (api) => api.post('/media/uploads', { kind: 'image', contentType: 'image/png', sizeBytes: 10, fileName: 'x.png' }),
  },
  { permission: 'media-write', what: 'POST /media/{id}/complete (choice)', call: (api, ids) => api.post('/media/{id}/complete', undefined, { params: { id: ids.media } }) },
];

describe('permission rules', () => {
  it.each(cases)('$what without $permission is 403 missing_permission naming it', async ({ permission, call }) => {
    const ids = await prepare();
    const reply = await call(emulator().api(keyWithout(permission)), ids);
    const [message] = expectError(reply, 403, ErrorCodes.missingPermission);
    expect(message).toContain(permission);
    // Nothing changed: the drafts and the scheduled post are as they were.
    expect((await getPost(emulator().api(), ids.draft)).status).toBe('draft');
    expect((await getPost(emulator().api(), ids.scheduled)).status).toBe('scheduled');
  });

  it('editing a draft without posts-publish is allowed (only scheduling needs it)', async () => {
    const { draft } = await prepare();
    const reply = await emulator().api(keyWithout('posts-publish')).patch('/posts/{id}', { content: 'still a draft' }, { params: { id: draft } });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ status: 'draft', content: 'still a draft', scheduledAt: null });
  });

  it('the quickstart key (accounts-read, posts-read, posts-write) can run the quickstart calls', async () => {
    const api = emulator().api(KEYS.quickstart);
    expect((await api.get('/auth/session')).status).toBe(200);
    expect((await api.get('/accounts')).status).toBe(200);
    const created = await api.post('/posts', draftBody({ targets: [{ socialAccountId: ACCOUNTS.photo }] }));
    expect(created.status).toBe(201);
    expect((await api.get('/posts')).status).toBe(200);
    expect((await api.get('/analytics/posts')).status).toBe(200);
  });

  it('resources of another project are 404, whatever the permissions', async () => {
    const ids = await prepare();
    const other = emulator().api(KEYS.other);
    expectError(await other.get('/posts/{id}', { params: { id: ids.draft } }), 404);
    expectError(await other.patch('/posts/{id}', { content: 'x' }, { params: { id: ids.draft } }), 404);
    expectError(await other.delete('/posts/{id}', { params: { id: ids.scheduled } }), 404);
    expectError(await other.get('/accounts/{accountId}/capabilities', { params: { accountId: ACCOUNTS.photo } }), 404);
    expectError(await other.post('/media/{id}/multipart', { operation: 'list' }, { params: { id: ids.multipartMedia } }), 404);
    expectError(await other.post('/media/{id}/complete', undefined, { params: { id: ids.media } }), 404);
    // An account of another project cannot be a target either.
    const borrowed = await emulator().api().post('/posts', draftBody({ targets: [{ socialAccountId: ACCOUNTS.otherProject }] }));
    expect([400, 404]).toContain(borrowed.status);
  });
});
