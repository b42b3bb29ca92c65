import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { ACME, inOneHour, mp4Bytes, pngBytes, testFixture, uploadMedia } from './support.js';

/**
 * Drafts may be incomplete: the publishing rules of the targets' capabilities (required options,
 * attachments, caption) are checked when a post is scheduled and on every edit of a scheduled
 * post, never on a draft.
 */
const emulator = useEmulator({ fixture: testFixture() });
const api = (method: string, path: string, body?: unknown) => emulator().api(method, path, { key: 'acme-full', body });

describe('publishing rules', () => {
  it('accepts a vidA draft without its required title and without a video; scheduling it lists what is missing', async () => {
    const draft = await api('POST', '/posts', { content: 'Idea: film the launch', targets: [{ socialAccountId: ACME.video }], mediaIds: [] });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    expect(draft.body.data).toMatchObject({ status: 'draft', targets: [{ platform: 'vidA' }] });

    const scheduled = await api('PATCH', `/posts/${draft.body.data.id}`, { scheduledAt: inOneHour() });
    expect(scheduled.status).toBe(400);
    expect(scheduled.body.error.message).toEqual([
      'targets[0] (@acme.video, vidA): options.vidATitle is required to schedule a post',
      'targets[0] (@acme.video, vidA): needs at least 1 media item(s), got 0',
    ]);
    expect((await api('GET', `/posts/${draft.body.data.id}`)).body.data.status).toBe('draft');

    const created = await api('POST', '/posts', { content: 'x', targets: [{ socialAccountId: ACME.video }], mediaIds: [], scheduledAt: inOneHour() });
    expect(created.status).toBe(400);
    expect(created.body.error.message).toContain('targets[0] (@acme.video, vidA): options.vidATitle is required to schedule a post');
  });

  it('schedules the draft once it is complete', async () => {
    const video = await uploadMedia(emulator(), mp4Bytes({ durationSeconds: 5 }), { kind: 'video', contentType: 'video/mp4', fileName: 'film.mp4' }, 'acme-full');
    const draft = await api('POST', '/posts', { content: 'Film', targets: [{ socialAccountId: ACME.video }], mediaIds: [video] });
    expect(draft.status).toBe(201);
    const completed = await api('PATCH', `/posts/${draft.body.data.id}`, { targets: [{ socialAccountId: ACME.video, options: { vidATitle: 'The film' } }], scheduledAt: inOneHour() });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body.data.status).toBe('scheduled');
  });

  it('checks a scheduled post again when it is edited: it may not become incomplete', async () => {
    const image = await uploadMedia(emulator(), pngBytes(8, 8), { kind: 'image', contentType: 'image/png' }, 'acme-full');
    const post = await api('POST', '/posts', { content: 'Launch', targets: [{ socialAccountId: ACME.photo }], mediaIds: [image], scheduledAt: inOneHour() });
    expect(post.status).toBe(201);
    const path = `/posts/${post.body.data.id}`;
    const withoutImage = await api('PATCH', path, { mediaIds: [] });
    expect(withoutImage.status).toBe(400);
    expect(withoutImage.body.error.message).toEqual(['targets[0] (@acme.photo, photoC): needs at least 1 media item(s), got 0']);
    const toVideo = await api('PATCH', path, { targets: [{ socialAccountId: ACME.video }] });
    expect(toVideo.body.error.message).toEqual(
      expect.arrayContaining(['targets[0] (@acme.video, vidA): options.vidATitle is required to schedule a post', expect.stringContaining('image/png images are not accepted')]),
    );
    expect((await api('GET', path)).body.data).toMatchObject({ status: 'scheduled', media: [{ id: image }] });
    // Back to draft, the same edit is accepted.
    expect((await api('PATCH', path, { scheduledAt: null })).status).toBe(200);
    const edited = await api('PATCH', path, { mediaIds: [] });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ status: 'draft', media: [] });
  });

  it('still refuses on a draft what no post may have: an option the platform does not have, a value of the wrong type', async () => {
    const response = await api('POST', '/posts', { content: 'x', mediaIds: [], targets: [{ socialAccountId: ACME.video, options: { vidATitle: 5, format: 'feed' } }] });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toEqual([
      'targets[0].options.vidATitle must be a string',
      expect.stringContaining('targets[0].options.format is not an option of vidA accounts'),
    ]);
  });
});
