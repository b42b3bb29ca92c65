import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { ACME, inOneHour, pngBytes, postBody, testFixture, uploadMedia } from './support.js';

const emulator = useEmulator({ fixture: testFixture() });
const api = (method: string, path: string, key: string, body?: unknown) => emulator().api(method, path, { key, body });

async function photoDraft(): Promise<{ id: string; media: string }> {
  const media = await uploadMedia(emulator(), pngBytes(8, 8), { kind: 'image', contentType: 'image/png' }, 'acme-full');
  const created = await api('POST', '/posts', 'acme-full', postBody(ACME.photo, { mediaIds: [media] }));
  expect(created.status).toBe(201);
  return { id: created.body.data.id, media };
}

describe('PATCH /posts/{id}', () => {
  it('edits a draft with posts-write; scheduling it needs posts-publish', async () => {
    const { id } = await photoDraft();
    const edited = await api('PATCH', `/posts/${id}`, 'acme-write', { content: 'edited' });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ id, content: 'edited', status: 'draft' });
    expect(Date.parse(edited.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(edited.body.data.createdAt));
    const denied = await api('PATCH', `/posts/${id}`, 'acme-write', { scheduledAt: inOneHour() });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: 'missing_permission', message: expect.stringContaining('posts-publish') });
    const stillDraft = await api('PATCH', `/posts/${id}`, 'acme-write', { scheduledAt: null });
    expect(stillDraft.body.data.status).toBe('draft');
    const scheduled = await api('PATCH', `/posts/${id}`, 'acme-publish', { scheduledAt: inOneHour() });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.data.status).toBe('scheduled');
  });

  it('needs posts-publish to edit a scheduled post; null returns it to draft', async () => {
    const { id } = await photoDraft();
    await api('PATCH', `/posts/${id}`, 'acme-full', { scheduledAt: inOneHour() });
    const denied = await api('PATCH', `/posts/${id}`, 'acme-write', { content: 'nope' });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toContain('posts-publish');
    const unschedule = await api('PATCH', `/posts/${id}`, 'acme-write', { scheduledAt: null });
    expect(unschedule.status).toBe(403);
    const edited = await api('PATCH', `/posts/${id}`, 'acme-publish', { content: 'still scheduled' });
    expect(edited.body.data).toMatchObject({ status: 'scheduled', content: 'still scheduled' });
    const draft = await api('PATCH', `/posts/${id}`, 'acme-publish', { scheduledAt: null });
    expect(draft.body.data).toMatchObject({ status: 'draft', scheduledAt: null });
  });

  it('refuses an empty edit, invalid fields and a past schedule', async () => {
    const { id } = await photoDraft();
    const empty = await api('PATCH', `/posts/${id}`, 'acme-full', {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toEqual(['at least one of content, targets, mediaIds, scheduledAt must be provided']);
    const bad = await api('PATCH', `/posts/${id}`, 'acme-full', { content: 'x'.repeat(10_001), mediaIds: Array(11).fill(randomUUID()), targets: Array(21).fill({ socialAccountId: ACME.photo }), scheduledAt: '2020-01-01T00:00:00Z' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toEqual(
      expect.arrayContaining([
        'content must be at most 10000 characters (got 10001)',
        'mediaIds must have at most 10 items (got 11)',
        'targets must have at most 20 items (got 21)',
        expect.stringContaining('scheduledAt must be in the future'),
      ]),
    );
    expect((await api('PATCH', `/posts/${randomUUID()}`, 'acme-full', { content: 'x' })).status).toBe(404);
    expect((await api('PATCH', '/posts/not-a-uuid', 'acme-full', { content: 'x' })).status).toBe(400);
  });

  it('replaces targets and media, keeping what was not sent', async () => {
    const { id, media } = await photoDraft();
    const edited = await api('PATCH', `/posts/${id}`, 'acme-full', { targets: [{ socialAccountId: ACME.failing, options: { format: 'story' } }] });
    expect(edited.body.data.targets).toEqual([{ socialAccountId: ACME.failing, platform: 'photoC', handle: '@acme.failing', options: { format: 'story' }, status: 'pending' }]);
    expect(edited.body.data.media.map((m: any) => m.id)).toEqual([media]);
    const noMedia = await api('PATCH', `/posts/${id}`, 'acme-full', { mediaIds: [] });
    expect(noMedia.body.data.media).toEqual([]);
  });

  it('answers 409 post_not_editable for a published post, for edit and delete', async () => {
    const { id } = await photoDraft();
    await api('PATCH', `/posts/${id}`, 'acme-full', { scheduledAt: new Date(Date.now() + 60_000).toISOString() });
    await emulator().advanceClock(3600);
    const published = await api('GET', `/posts/${id}`, 'acme-read');
    expect(published.body.data.status).toBe('published');
    const edit = await api('PATCH', `/posts/${id}`, 'acme-full', { content: 'too late' });
    expect(edit.status).toBe(409);
    expect(edit.body.error.code).toBe('post_not_editable');
    expect(edit.body.error.message).toContain('published');
    const remove = await api('DELETE', `/posts/${id}`, 'acme-full');
    expect(remove.status).toBe(409);
    expect(remove.body.error.code).toBe('post_not_editable');
    await emulator().setClock(new Date());
  });
});

describe('DELETE /posts/{id}', () => {
  it('needs posts-delete and deletes drafts and scheduled posts', async () => {
    const { id } = await photoDraft();
    const denied = await api('DELETE', `/posts/${id}`, 'acme-publish');
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toContain('posts-delete');
    const deleted = await api('DELETE', `/posts/${id}`, 'acme-full');
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ deleted: true });
    expect((await api('GET', `/posts/${id}`, 'acme-full')).status).toBe(404);
    expect((await api('DELETE', `/posts/${id}`, 'acme-full')).status).toBe(404);
    const scheduled = await photoDraft();
    expect((await api('PATCH', `/posts/${scheduled.id}`, 'acme-full', { scheduledAt: inOneHour() })).body.data.status).toBe('scheduled');
    expect((await api('DELETE', `/posts/${scheduled.id}`, 'acme-full')).status).toBe(200);
  });

  it('needs posts-read to read', async () => {
    const { id } = await photoDraft();
    const denied = await emulator().api('GET', `/posts/${id}`, { key: 'acme-paused' });
    expect(denied.status).toBe(403);
    const read = await api('GET', `/posts/${id}`, 'acme-read');
    expect(read.status).toBe(200);
  });
});
