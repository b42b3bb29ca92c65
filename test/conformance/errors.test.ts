import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../src/api/error-codes.js';
import { expectError, type Reply } from './client.js';
import { ACCOUNTS, KEYS, RATE_LIMIT, keyWithout } from './fixture.js';
import { createPost, draftBody, getPost, later, uploadImage } from './flows.js';
import { useConformance } from './harness.js';
import { expectMatchesUnroutedResponse } from '../helpers/openapi.js';

/**
 * One test per row of the spec's Errors table (400 401 403 404 409 413 429 500 503). The header
 * rules (X-Request-Id = meta.requestId, Cache-Control: no-store, the Error envelope) are checked
 * on every answer by client.ts; rows with extra headers check them here.
 */
const emulator = useConformance();

const retryAfterSeconds = (reply: Reply): number => {
  const raw = reply.headers.get('retry-after');
  expect(raw, 'Retry-After header').toMatch(/^\d+$/);
  return Number(raw);
};

describe('Errors table', () => {
  it('400: a body that is not JSON, and a body that breaks several rules (all listed)', async () => {
    const api = emulator().api();
    const notJson = await api.request('POST', '/posts', { raw: '{"content": "unterminated' });
    expectError(notJson, 400, ErrorCodes.invalidJson);

    const broken = await api.post('/posts', { content: 'x'.repeat(10_001), targets: 'all', mediaIds: ['not-a-uuid'] });
    const messages = expectError(broken, 400, ErrorCodes.validationFailed);
    expect(broken.body.error.message).toEqual(expect.any(Array));
    expect(messages.length).toBeGreaterThanOrEqual(3);
    expect(messages.join('\n')).toMatch(/content/);
    expect(messages.join('\n')).toMatch(/targets/);
    expect(messages.join('\n')).toMatch(/mediaIds/);
  });

  it('401: a missing, an unknown and an expired key', async () => {
    expectError(await emulator().api(null).get('/posts'), 401, ErrorCodes.unauthorized);
    expectError(await emulator().api('no-such-key').get('/posts'), 401, ErrorCodes.unauthorized);
    expectError(await emulator().api(KEYS.expired).get('/posts'), 401, ErrorCodes.apiKeyExpired);
    const malformed = await emulator().api(null).get('/posts', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expectError(malformed, 401);
  });

  it('403: a paused key gets api_key_paused, on every endpoint', async () => {
    const paused = emulator().api(KEYS.paused);
    expectError(await paused.get('/auth/session'), 403, ErrorCodes.apiKeyPaused);
    expectError(await paused.get('/posts'), 403, ErrorCodes.apiKeyPaused);
    expectError(await paused.post('/posts', draftBody()), 403, ErrorCodes.apiKeyPaused);
  });

  it('403: a missing permission is named in the message', async () => {
    const reply = await emulator().api(keyWithout('posts-read')).get('/posts');
    const [message] = expectError(reply, 403, ErrorCodes.missingPermission);
    expect(message).toContain('posts-read');
  });

  it('404: an unknown post, and a post of another project', async () => {
    const api = emulator().api();
    expectError(await api.get('/posts/{id}', { params: { id: '00000000-0000-4000-8000-000000000000' } }), 404, ErrorCodes.notFound);
    const foreign = await createPost(emulator().api(KEYS.other));
    expectError(await api.get('/posts/{id}', { params: { id: foreign.id } }), 404, ErrorCodes.notFound);
    expectError(await api.patch('/posts/{id}', { content: 'mine now' }, { params: { id: foreign.id } }), 404, ErrorCodes.notFound);
    expectError(await api.delete('/posts/{id}', { params: { id: foreign.id } }), 404, ErrorCodes.notFound);
    const still = await emulator().api(KEYS.other).get('/posts/{id}', { params: { id: foreign.id } });
    expect(still.body.data.content).toBe(foreign.content);
  });

  it('413: a JSON body over 100 KB, declared or chunked, is refused before it is parsed', async () => {
    const oversized = JSON.stringify(draftBody()).replace(/}$/, `${' '.repeat(102_401)}}`);
    const declared = await emulator().api().request('POST', '/posts', { raw: oversized });
    expect(declared.status).toBe(413);
    // Not valid JSON either: a 413 (not a 400) proves the size is checked before parsing.
    const garbage = await emulator().api().request('POST', '/posts', { raw: `{${'x'.repeat(150_000)}` });
    expect(garbage.status).toBe(413);

    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 30; i += 1) controller.enqueue(new TextEncoder().encode(' '.repeat(5_000)));
        controller.enqueue(new TextEncoder().encode('{}'));
        controller.close();
      },
    });
    const chunked = await emulator().api().request('POST', '/posts', { raw: stream });
    expect(chunked.status).toBe(413);
  });

  it('409: editing a published post (idempotency_in_progress with Retry-After: idempotency.test.ts)', async () => {
    // The in-progress conflict needs two overlapping requests, which idempotency.test.ts makes.
    const api = emulator().api();
    const image = await uploadImage(emulator());
    const now = await emulator().control.now();
    const post = await createPost(api, draftBody({ targets: [{ socialAccountId: ACCOUNTS.photo }], mediaIds: [image.id], scheduledAt: later(now, 3600) }));
    await emulator().control.advanceClock(7200);
    expectError(await api.patch('/posts/{id}', { content: 'too late' }, { params: { id: post.id } }), 409, ErrorCodes.postNotEditable);
  });

  it('429: the project-wide limit is shared by all its keys and answered with Retry-After', async () => {
    const keys = [emulator().api(KEYS.limitedA), emulator().api(KEYS.limitedB)];
    const remaining: number[] = [];
    for (let i = 0; i < RATE_LIMIT; i += 1) {
      const reply = await keys[i % 2]!.get('/posts');
      expect(reply.status).toBe(200);
      expect(reply.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT));
      remaining.push(Number(reply.headers.get('x-ratelimit-remaining')));
    }
    expect(remaining).toEqual([RATE_LIMIT - 1, RATE_LIMIT - 2, RATE_LIMIT - 3, RATE_LIMIT - 4]);
    for (const client of keys) {
      const limited = await client.get('/posts');
      expectError(limited, 429, ErrorCodes.rateLimited);
      expect(retryAfterSeconds(limited)).toBeGreaterThanOrEqual(1);
    }
    // Another project is not affected, and has no rate-limit headers (it has no limit).
    const acme = await emulator().api().get('/posts');
    expect(acme.status).toBe(200);
    expect(acme.headers.get('x-ratelimit-limit')).toBeNull();
    // After the wait Retry-After asked for (on the emulator clock), requests pass again.
    await emulator().control.advanceClock(retryAfterSeconds(await keys[0]!.get('/posts')));
    expect((await keys[1]!.get('/posts')).status).toBe(200);
  });

  it('500 and 503: failures still use the Error envelope', async () => {
    const api = emulator().api();
    try {
      await emulator().control.faults('rate=1,kinds=500');
      expectError(await api.get('/posts'), 500, ErrorCodes.internalError);
      await emulator().control.faults('rate=1,kinds=503');
      expectError(await api.get('/posts'), 503, ErrorCodes.serviceUnavailable);
    } finally {
      await emulator().control.faults('');
    }
    expect((await api.get('/posts')).status).toBe(200);
  });
});

describe('answers the spec leaves open (documented in openapi.yaml)', () => {
  it('405: a method a known path does not have, with Allow and a message naming both', async () => {
    const post = await createPost(emulator().api());
    const url = `${emulator().origin}/public/v1/posts/${post.id}`;
    const response = await fetch(url, { method: 'PUT', headers: { authorization: `Bearer ${KEYS.full}`, 'content-type': 'application/json' }, body: '{}' });
    const body = (await response.json()) as { error: { code: string; message: string } };
    expectMatchesUnroutedResponse(405, body, response.headers);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, PATCH, DELETE');
    expect(body.error).toEqual({ code: ErrorCodes.methodNotAllowed, message: `method PUT is not allowed on /public/v1/posts/${post.id}; allowed: GET, PATCH, DELETE` });
    expect((await emulator().api().get('/posts/{id}', { params: { id: post.id } })).body.data.content).toBe(post.content);
  });

  it('415: a POST or PATCH body declared as anything but application/json is refused, unread', async () => {
    const api = emulator().api();
    const body = JSON.stringify(draftBody());
    const plain = await api.request('POST', '/posts', { raw: body, headers: { 'content-type': 'text/plain' } });
    expect(expectError(plain, 415, ErrorCodes.unsupportedMediaType)).toEqual(['request bodies must be JSON with Content-Type: application/json (got Content-Type text/plain)']);
    const post = await createPost(api);
    const patch = await api.request('PATCH', '/posts/{id}', { params: { id: post.id }, raw: JSON.stringify({ content: 'changed' }), headers: { 'content-type': 'text/plain;charset=UTF-8' } });
    expectError(patch, 415, ErrorCodes.unsupportedMediaType);
    expect((await getPost(api, post.id)).content).toBe(post.content);
    const upload = await api.request('POST', '/media/uploads', { raw: JSON.stringify({ kind: 'image', contentType: 'image/png', sizeBytes: 10, fileName: 'a.png' }), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expectError(upload, 415, ErrorCodes.unsupportedMediaType);
    const charset = await api.request('POST', '/posts', { raw: body, headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(charset.status).toBe(201);
  });
});
