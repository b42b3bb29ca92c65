import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError, type Post } from '../../src/api/index.js';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { makePng } from '../helpers/media-generators/index.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';

const START = new Date('2030-03-01T08:00:00Z');
const emulator = useEmulator({ now: START });
let client: ApiClient;

beforeAll(() => {
  client = new ApiClient({ baseUrl: emulator().baseUrl, apiKey: DEMO_API_KEY });
});
afterAll(async () => {
  await client.close();
});

const inMinutes = (minutes: number): string => new Date(START.getTime() + minutes * 60_000).toISOString();

async function uploadedPng(): Promise<string> {
  const dir = await testdir();
  const path = join(dir, 'photo.png');
  const bytes = makePng({ width: 64, height: 48 });
  await writeFile(path, bytes);
  const ticket = await client.createUpload({ kind: 'image', contentType: 'image/png', sizeBytes: bytes.length, fileName: 'photo.png' });
  expect(ticket.upload.url).toMatch(/\/_storage\//);
  await client.uploadSingle(ticket, { path, sizeBytes: bytes.length, contentType: 'image/png' });
  const media = await client.completeMedia(ticket.media.id);
  expect(media).toMatchObject({ id: ticket.media.id, kind: 'image', width: 64, height: 48 });
  return media.id;
}

describe('every endpoint through the client, against the emulator', () => {
  it('session, accounts (all pages) and capabilities', async () => {
    const session = await client.session();
    expect(session.project.id).toBe('demo');
    expect(session.permissions).toContain('posts-publish');
    const accounts = await client.accounts();
    expect(accounts.map((a) => a.id).sort()).toEqual(Object.values(DEMO_ACCOUNTS).sort());
    const capabilities = await client.capabilities(DEMO_ACCOUNTS.photo);
    expect(capabilities.account).toMatchObject({ id: DEMO_ACCOUNTS.photo, platform: 'photoC' });
    expect(capabilities.rules.caption.maxLength).toBeGreaterThan(0);
  });

  it('creates, reads, edits, schedules, lists and deletes a post', async () => {
    const created = await client.createPost({ content: 'Draft one', targets: [{ socialAccountId: DEMO_ACCOUNTS.photo }], mediaIds: [] }, { idempotencyKey: 'endpoints-create-1' });
    expect(created).toMatchObject({ status: 'draft', content: 'Draft one', scheduledAt: null });
    expect(await client.getPost(created.id)).toEqual(created);
    const edited = await client.updatePost(created.id, { content: 'Draft one, edited' });
    expect(edited.content).toBe('Draft one, edited');
    const mediaId = await uploadedPng();
    const scheduled = await client.updatePost(created.id, { mediaIds: [mediaId], scheduledAt: inMinutes(600) });
    expect(scheduled).toMatchObject({ status: 'scheduled', scheduledAt: inMinutes(600) });
    const page = await client.listPostsPage({ status: 'scheduled', limit: 10 });
    expect(page.items.map((p) => p.id)).toContain(created.id);
    const listed: Post[] = [];
    for await (const post of client.listPosts({ q: 'edited' })) listed.push(post);
    expect(listed.map((p) => p.id)).toEqual([created.id]);
    await client.deletePost(created.id);
    await expect(client.getPost(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it('publishes on the emulator clock and reads analytics page by page with the opaque cursor', async () => {
    const mediaId = await uploadedPng();
    for (const [index, minutes] of [10, 20, 30].entries()) {
      const body = { content: `Published ${index}`, targets: [{ socialAccountId: DEMO_ACCOUNTS.photo }], mediaIds: [mediaId] };
      const post = await client.createPost(body, { idempotencyKey: `endpoints-analytics-${index}` });
      await client.updatePost(post.id, { scheduledAt: inMinutes(minutes) });
    }
    await emulator().advanceClock(3600);
    await emulator().clearLog();
    const items = [];
    for await (const item of client.analytics({ platform: 'photoC', limit: 1 })) items.push(item);
    expect(items).toHaveLength(3);
    expect(items.every((item) => item.platform === 'photoC' && typeof item.impressions === 'number')).toBe(true);
    const queries = (await emulator().requestLog()).filter((e) => e.path.endsWith('/analytics/posts')).map((e) => new URLSearchParams(e.query));
    expect(queries.length).toBeGreaterThanOrEqual(3);
    expect(queries.every((q) => q.get('platform') === 'photoC' && q.get('limit') === '1' && !q.has('after'))).toBe(true);
    expect(queries.slice(1).every((q) => q.has('cursor'))).toBe(true);
  });

  it('aborts a multipart upload', async () => {
    const ticket = await client.createUpload({ kind: 'video', contentType: 'video/mp4', sizeBytes: 40 * 1024 * 1024, fileName: 'big.mp4' });
    expect(ticket.upload.multipart?.partCount).toBeGreaterThan(1);
    expect(await client.multipart(ticket.media.id, 'abort')).toEqual({ aborted: true });
  });

  it('reports the emulator errors as ApiError with the envelope fields', async () => {
    const failure = await client.updatePost('00000000-0000-4000-8000-000000000000', { content: 'x' }).catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 404, code: 'not_found', requestId: expect.any(String) });
  });
});
