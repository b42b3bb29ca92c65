import { expect } from 'vitest';
import type { Media, Post } from '../../src/api/types.js';
import type { ApiClient } from './client.js';
import type { Conformance } from './harness.js';
import { PNG_1X1 } from './media-bytes.js';

/** Small multi-step flows the conformance tests share; each step is an ordinary checked request. */

let counter = 0;

/** Content no other post of the run has, so a `q` search finds exactly one post. */
export const uniqueContent = (label = 'post'): string => `${label} ${Date.now().toString(36)}-${(counter += 1)}`;

/** A create body for an editable draft without targets (the spec's minimal create). */
export const draftBody = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  content: uniqueContent(),
  targets: [],
  mediaIds: [],
  ...overrides,
});

export async function createPost(api: ApiClient, body: Record<string, unknown> = draftBody(), headers?: Record<string, string>): Promise<Post> {
  const reply = await api.post('/posts', body, { headers });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.data as Post;
}

export async function getPost(api: ApiClient, id: string): Promise<Post> {
  const reply = await api.get('/posts/{id}', { params: { id } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.data as Post;
}

/** An instant `seconds` after `from` (an ISO string or epoch ms), as RFC 3339 with Z. */
export const later = (from: string | number, seconds: number): string =>
  new Date((typeof from === 'string' ? Date.parse(from) : from) + seconds * 1000).toISOString();

/** Uploads a 1×1 PNG through the whole single-PUT flow and returns the completed Media. */
export async function uploadImage(h: Conformance, api: ApiClient = h.api()): Promise<Media> {
  const ticket = await api.post('/media/uploads', { kind: 'image', contentType: 'image/png', sizeBytes: PNG_1X1.length, fileName: 'pixel.png' });
  expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);
  const { media, upload } = ticket.body.data;
  const put = await h.storagePut(upload.url, PNG_1X1, upload.headers);
  expect(put.status).toBe(200);
  const completed = await api.post('/media/{id}/complete', undefined, { params: { id: media.id } });
  expect(completed.status, JSON.stringify(completed.body)).toBe(200);
  return completed.body.data as Media;
}

/** Walks GET /posts forwards from the first page; returns every page (items and cursor). */
export async function walkPages(
  api: ApiClient,
  query: Record<string, string | number>,
): Promise<{ items: Post[]; nextCursor: string | null }[]> {
  const pages: { items: Post[]; nextCursor: string | null }[] = [];
  let after: string | undefined;
  for (let guard = 0; guard < 1000; guard += 1) {
    const reply = await api.get('/posts', { query: { ...query, after } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    pages.push(reply.body.data);
    after = reply.body.data.nextCursor ?? undefined;
    if (after === undefined) return pages;
  }
  throw new Error('GET /posts never returned a null nextCursor');
}
