import { Readable } from 'node:stream';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { ACME, OTHER_ACCOUNT, postBody, testFixture } from './support.js';

const emulator = useEmulator({ fixture: testFixture() });

function expectEnvelopeHeaders(response: { headers: Headers; body: any }): void {
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toBeTruthy();
  expect(response.body.meta.requestId).toBe(requestId);
  expect(response.headers.get('cache-control')).toBe('no-store');
}

describe('authentication', () => {
  it('answers 401 for a missing, unknown or expired key', async () => {
    const missing = await emulator().api('GET', '/posts', { key: null });
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('unauthorized');
    expectEnvelopeHeaders(missing);
    const malformed = await emulator().api('GET', '/posts', { key: null, headers: { Authorization: 'Basic abc' } });
    expect(malformed.status).toBe(401);
    const unknown = await emulator().api('GET', '/posts', { key: 'nope' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('unauthorized');
    const expired = await emulator().api('GET', '/posts', { key: 'acme-expired' });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('api_key_expired');
    expect((await emulator().api('GET', '/posts', { key: 'acme-later' })).status).toBe(200);
  });

  it('answers 403 api_key_paused for a paused key', async () => {
    const paused = await emulator().api('GET', '/posts', { key: 'acme-paused' });
    expect(paused.status).toBe(403);
    expect(paused.body.error.code).toBe('api_key_paused');
    expectEnvelopeHeaders(paused);
  });

  it('answers 403 naming the missing permission', async () => {
    const denied = await emulator().api('POST', '/posts', { key: 'acme-read', body: postBody(ACME.photo) });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('missing_permission');
    expect(denied.body.error.message).toContain('posts-write');
    const media = await emulator().api('POST', '/media/uploads', { key: 'acme-write', body: { kind: 'image', contentType: 'image/png', sizeBytes: 10, fileName: 'a.png' } });
    expect(media.status).toBe(403);
    expect(media.body.error.message).toContain('media-write');
    const accounts = await emulator().api('GET', '/accounts', { key: 'acme-write' });
    expect(accounts.body.error.message).toContain('accounts-read');
  });

  it('reports the session without the credential', async () => {
    const session = await emulator().api('GET', '/auth/session', { key: 'acme-later' });
    expect(session.status).toBe(200);
    expect(session.body.data).toEqual({
      project: { id: 'acme' },
      key: { expiresAt: '2999-01-01T00:00:00.000Z' },
      permissions: ['accounts-read', 'posts-read', 'posts-write', 'posts-publish', 'posts-delete', 'media-write'],
    });
    expect(JSON.stringify(session.body)).not.toContain('acme-later');
  });

  it('hides other projects: their posts and accounts are 404 or unknown', async () => {
    const created = await emulator().api('POST', '/posts', { key: 'other-a', body: postBody(OTHER_ACCOUNT) });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect((await emulator().api('GET', `/posts/${id}`, { key: 'acme-full' })).status).toBe(404);
    expect((await emulator().api('PATCH', `/posts/${id}`, { key: 'acme-full', body: { content: 'x' } })).status).toBe(404);
    expect((await emulator().api('DELETE', `/posts/${id}`, { key: 'acme-full' })).status).toBe(404);
    const capabilities = await emulator().api('GET', `/accounts/${OTHER_ACCOUNT}/capabilities`, { key: 'acme-full' });
    expect(capabilities.status).toBe(404);
    expect(capabilities.body.error.code).toBe('not_found');
    const crossTarget = await emulator().api('POST', '/posts', { key: 'acme-full', body: postBody(OTHER_ACCOUNT) });
    expect(crossTarget.status).toBe(400);
    expect(crossTarget.body.error.message).toEqual([`targets[0].socialAccountId ${OTHER_ACCOUNT} is not an account of this project`]);
  });
});

describe('envelopes and headers', () => {
  it('puts X-Request-Id = meta.requestId and Cache-Control: no-store on success, error and 404 answers', async () => {
    const ok = await emulator().api('GET', '/accounts', { key: 'acme-full' });
    expect(ok.status).toBe(200);
    expectEnvelopeHeaders(ok);
    expect(ok.body.data.items.map((a: any) => a.id)).toContain(ACME.photo);
    const missingRoute = await emulator().api('GET', '/nothing-here', { key: 'acme-full' });
    expect(missingRoute.status).toBe(404);
    expect(missingRoute.body.error.code).toBe('not_found');
    expectEnvelopeHeaders(missingRoute);
    const outside = await fetch(`${emulator().origin}/elsewhere`);
    expect(outside.status).toBe(404);
    expect(outside.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 400 invalid_json for a body that does not parse', async () => {
    const bad = await emulator().api('POST', '/posts', { key: 'acme-full', rawBody: '{"content": ' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_json');
    expectEnvelopeHeaders(bad);
  });

  it('answers 413 for a JSON body over 100 KB, with or without Content-Length', async () => {
    const big = JSON.stringify({ content: 'x'.repeat(102_400) });
    const declared = await emulator().api('POST', '/posts', { key: 'acme-full', rawBody: big });
    expect(declared.status).toBe(413);
    expect(declared.body.error.code).toBe('payload_too_large');
    const chunked = await request(`${emulator().baseUrl}/posts`, {
      method: 'POST',
      headers: { authorization: 'Bearer acme-full', 'content-type': 'application/json' },
      body: Readable.from(Array.from({ length: 30 }, () => Buffer.alloc(4096, 0x20))),
    });
    expect(chunked.statusCode).toBe(413);
    expect(((await chunked.body.json()) as any).error.code).toBe('payload_too_large');
    const justUnder = await emulator().api('POST', '/posts', { key: 'acme-full', rawBody: ' '.repeat(102_390) + '{}' });
    expect(justUnder.status).toBe(400);
  });

  it('limits a project across all its keys, with X-RateLimit headers and an integer Retry-After', async () => {
    // A fresh window that starts on a round minute, so the boundary is ~60 s away.
    await emulator().setClock(new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 3600_000));
    const seen: Array<{ status: number; limit: string | null; remaining: string | null; retryAfter: string | null }> = [];
    for (const key of ['other-a', 'other-b', 'other-a', 'other-b', 'other-a', 'other-b', 'other-a']) {
      const response = await emulator().api('GET', '/accounts', { key });
      seen.push({ status: response.status, limit: response.headers.get('x-ratelimit-limit'), remaining: response.headers.get('x-ratelimit-remaining'), retryAfter: response.headers.get('retry-after') });
      if (response.status === 429) expect(response.body.error.code).toBe('rate_limited');
    }
    expect(seen.map((s) => s.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(seen.map((s) => s.remaining)).toEqual(['4', '3', '2', '1', '0', '0', '0']);
    expect(seen.every((s) => s.limit === '5')).toBe(true);
    const limited = seen.filter((s) => s.status === 429);
    for (const s of limited) {
      expect(s.remaining).toBe('0');
      expect(s.retryAfter).toMatch(/^[1-9]\d*$/);
    }
    expect((await emulator().api('GET', '/accounts', { key: 'acme-full' })).headers.get('x-ratelimit-limit')).toBeNull();
    await emulator().advanceClock(61);
    expect((await emulator().api('GET', '/accounts', { key: 'other-b' })).status).toBe(200);
  });
});
