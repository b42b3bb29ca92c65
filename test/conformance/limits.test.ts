import { beforeAll, describe, expect, it } from 'vitest';
import type { Media } from '../../src/api/types.js';
import { expectError } from './client.js';
import { CROWD_ACCOUNTS } from './fixture.js';
import { createPost, draftBody, uploadImage } from './flows.js';
import { useConformance } from './harness.js';

/** One test per row of the spec's Limits table, each at the limit (accepted) and past it (refused). */
const emulator = useConformance();

/** A valid create body padded with JSON whitespace to exactly `bytes` bytes. */
function paddedBody(bytes: number): string {
  const text = JSON.stringify(draftBody());
  return `${text.slice(0, -1)}${' '.repeat(bytes - text.length)}}`;
}

let images: Media[] = [];
beforeAll(async () => {
  images = [];
  for (let i = 0; i < 11; i += 1) images.push(await uploadImage(emulator()));
  // More posts than the default page size (50).
  for (let i = 0; i < 55; i += 1) await createPost(emulator().api(), draftBody({ content: `filler ${i}` }));
});

describe('Limits table', () => {
  it('JSON body size: 100 KB is accepted, over 100 KB gives 413', async () => {
    const api = emulator().api();
    const atLimit = await api.request('POST', '/posts', { raw: paddedBody(100_000) });
    expect(atLimit.status, JSON.stringify(atLimit.body)).toBe(201);
    const over = await api.request('POST', '/posts', { raw: paddedBody(102_401) });
    expect(over.status).toBe(413);
    const post = await createPost(api);
    const overPatch = await api.request('PATCH', '/posts/{id}', { params: { id: post.id }, raw: `{"content":"x"${' '.repeat(102_400)}}` });
    expect(overPatch.status).toBe(413);
  });

  it('content: 10000 characters on create and edit, 10001 refused', async () => {
    const api = emulator().api();
    const created = await createPost(api, draftBody({ content: 'a'.repeat(10_000) }));
    expect(created.content).toHaveLength(10_000);
    expectError(await api.post('/posts', draftBody({ content: 'a'.repeat(10_001) })), 400);
    const edited = await api.patch('/posts/{id}', { content: 'b'.repeat(10_000) }, { params: { id: created.id } });
    expect(edited.status).toBe(200);
    const [message] = expectError(await api.patch('/posts/{id}', { content: 'b'.repeat(10_001) }, { params: { id: created.id } }), 400);
    expect(message).toMatch(/content/);
  });

  it('content counts characters, not UTF-16 code units: 10000 emoji are accepted', async () => {
    const created = await createPost(emulator().api(), draftBody({ content: '😀'.repeat(10_000) }));
    expect([...created.content]).toHaveLength(10_000);
  });

  it('mediaIds: 10 items on edit, 11 refused', async () => {
    const api = emulator().api();
    const post = await createPost(api);
    const ten = images.slice(0, 10).map((image) => image.id);
    const edited = await api.patch('/posts/{id}', { mediaIds: ten }, { params: { id: post.id } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data.media.map((media: Media) => media.id)).toEqual(ten);
    const eleven = images.map((image) => image.id);
    const [message] = expectError(await api.patch('/posts/{id}', { mediaIds: eleven }, { params: { id: post.id } }), 400);
    expect(message).toMatch(/mediaIds/);
  });

  it('targets: 20 items on edit, 21 refused', async () => {
    const api = emulator().api();
    const post = await createPost(api);
    const twenty = CROWD_ACCOUNTS.slice(0, 20).map((socialAccountId) => ({ socialAccountId }));
    const edited = await api.patch('/posts/{id}', { targets: twenty }, { params: { id: post.id } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data.targets).toHaveLength(20);
    const twentyOne = CROWD_ACCOUNTS.map((socialAccountId) => ({ socialAccountId }));
    const [message] = expectError(await api.patch('/posts/{id}', { targets: twentyOne }, { params: { id: post.id } }), 400);
    expect(message).toMatch(/targets/);
  });

  it('partNumber: 1 to 128 and within the upload’s part count, for sign', async () => {
    const api = emulator().api();
    const ticket = await api.post('/media/uploads', { kind: 'video', contentType: 'video/mp4', sizeBytes: 40 * 1024 * 1024, fileName: 'long.mp4' });
    expect(ticket.status).toBe(201);
    const { media, upload } = ticket.body.data;
    const partCount: number = upload.multipart.partCount;
    expect(partCount).toBeGreaterThan(1);
    const sign = (partNumber: number) => api.post('/media/{id}/multipart', { operation: 'sign', partNumber }, { params: { id: media.id } });
    expect((await sign(1)).body.data.url).toEqual(expect.any(String));
    expect((await sign(partCount)).status).toBe(200);
    for (const outside of [0, partCount + 1, 129, 1.5]) expectError(await sign(outside), 400);
  });

  it('limit (page size): 1 to 100, default 50', async () => {
    const api = emulator().api();
    expect((await api.get('/posts')).body.data.items).toHaveLength(50);
    expect((await api.get('/posts', { query: { limit: 1 } })).body.data.items).toHaveLength(1);
    expect((await api.get('/posts', { query: { limit: 100 } })).body.data.items.length).toBeGreaterThan(50);
    for (const bad of ['0', '101', 'ten', '-1']) expectError(await api.get('/posts', { query: { limit: bad } }), 400);
  });

  it('q: 1 to 200 characters', async () => {
    const api = emulator().api();
    const post = await createPost(api, draftBody({ content: `needle-${'q'.repeat(193)}` }));
    expect(post.content).toHaveLength(200);
    const found = await api.get('/posts', { query: { q: post.content } });
    expect(found.body.data.items.map((item: { id: string }) => item.id)).toEqual([post.id]);
    expectError(await api.get('/posts', { query: { q: '' } }), 400);
    expectError(await api.get('/posts', { query: { q: 'q'.repeat(201) } }), 400);
  });

  it('every violated limit is listed at once', async () => {
    const api = emulator().api();
    const post = await createPost(api);
    const body = {
      content: 'c'.repeat(10_001),
      targets: CROWD_ACCOUNTS.map((socialAccountId) => ({ socialAccountId })),
      mediaIds: images.map((image) => image.id),
    };
    const messages = expectError(await api.patch('/posts/{id}', body, { params: { id: post.id } }), 400);
    expect(messages.length).toBeGreaterThanOrEqual(3);
    const listing = expectError(await api.get('/posts', { query: { limit: 0, q: '', after: post.id, before: post.id } }), 400);
    expect(listing.length).toBeGreaterThanOrEqual(3);
  });

});
