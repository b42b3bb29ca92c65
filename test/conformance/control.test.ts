import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../src/api/error-codes.js';
import { startEmulator } from '../../src/emulator/index.js';
import { expectError, send } from './client.js';
import { expectMatchesUnroutedResponse } from '../helpers/openapi.js';
import { rawRequest } from '../helpers/raw-request.js';
import { conformanceFixture } from './fixture.js';
import { createPost, draftBody, getPost } from './flows.js';
import { useConformance } from './harness.js';

/**
 * The emulator-only control endpoints (`/_emulator/*`, README), through the document like everything else:
 * the request log (with idempotency keys and request ids), the clock, faults and reset.
 */
const emulator = useConformance();

/** An address of this machine that is not loopback, if it has one. */
const externalAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;

describe('/_emulator control endpoints', () => {
  it('log every API request with its status, Idempotency-Key and request id; DELETE empties the log', async () => {
    const api = emulator().api();
    const created = await api.post('/posts', draftBody(), { headers: { 'idempotency-key': 'logged-key' } });
    await api.get('/posts/{id}', { params: { id: '00000000-0000-4000-8000-000000000000' } });
    const log = (await emulator().control.requests()).body.data as { method: string; path: string; status: number; idempotencyKey: string | null; requestId: string }[];
    const create = log.find((entry) => entry.idempotencyKey === 'logged-key');
    expect(create).toMatchObject({ method: 'POST', path: '/public/v1/posts', status: 201, requestId: created.body.meta.requestId });
    expect(log.some((entry) => entry.status === 404)).toBe(true);
    expect(new Set(log.map((entry) => entry.requestId)).size, 'request ids are unique').toBe(log.length);

    const cleared = await send('DELETE', '/_emulator/requests', `${emulator().origin}/_emulator/requests`, { headers: { 'x-postsync-token': emulator().controlToken } });
    expect(cleared.status).toBe(200);
    expect((await emulator().control.requests()).body.data).toEqual([]);
  });

  it('refuse a clock body without exactly one of advanceSeconds or now', async () => {
    const url = `${emulator().origin}/_emulator/clock`;
    const headers = { 'content-type': 'application/json', 'x-postsync-token': emulator().controlToken };
    for (const body of [{}, { advanceSeconds: 1, now: '2030-01-01T00:00:00Z' }, { now: 'soon' }]) {
      const reply = await send('POST', '/_emulator/clock', url, { body: JSON.stringify(body), headers });
      expect(reply.status).toBe(400);
    }
  });

  it('answer no web page: another origin is 403 cross_site_request, a change without the token 403 control_token_required, a form post 415', async () => {
    const url = `${emulator().origin}/_emulator/clock`;
    const body = JSON.stringify({ advanceSeconds: 0 });
    const json = { 'content-type': 'application/json' };
    const token = { 'x-postsync-token': emulator().controlToken };
    expectError(await send('POST', '/_emulator/clock', url, { body, headers: { ...json, ...token, origin: 'http://evil.example' } }), 403, ErrorCodes.crossSiteRequest);
    expectError(await send('GET', '/_emulator/requests', `${emulator().origin}/_emulator/requests`, { headers: { origin: 'http://evil.example' } }), 403, ErrorCodes.crossSiteRequest);
    expectError(await send('POST', '/_emulator/clock', url, { body, headers: json }), 403, ErrorCodes.controlTokenRequired);
    expectError(await send('POST', '/_emulator/reset', `${emulator().origin}/_emulator/reset`, {}), 403, ErrorCodes.controlTokenRequired);
    expectError(await send('POST', '/_emulator/clock', url, { body, headers: { 'content-type': 'text/plain', ...token } }), 415, ErrorCodes.unsupportedMediaType);
  });

  it('answer a Host that is not a loopback name with 421 and a malformed address with 400, on every path', async () => {
    const port = new URL(emulator().origin).port;
    const misdirected = await rawRequest(emulator().origin, '/public/v1/auth/session', { headers: { host: `evil.example:${port}`, authorization: 'Bearer acme-full-key' } });
    expect(misdirected.status).toBe(421);
    expectMatchesUnroutedResponse(421, JSON.parse(misdirected.body), misdirected.headers);
    const malformed = await rawRequest(emulator().origin, '/public/v1/posts/%E0%A4%A', { headers: { authorization: 'Bearer acme-full-key' } });
    expect(malformed.status).toBe(400);
    expectMatchesUnroutedResponse(400, JSON.parse(malformed.body), malformed.headers);
  });

  it('reset returns to the fixture: posts created since are gone', async () => {
    const post = await createPost(emulator().api(), draftBody());
    expect((await getPost(emulator().api(), post.id)).id).toBe(post.id);
    await emulator().control.reset();
    const gone = await emulator().api().get('/posts/{id}', { params: { id: post.id } });
    expect(gone.status).toBe(404);
  });

  it.skipIf(externalAddress === undefined)('answer loopback peers only (403 loopback_only), while the API serves everyone', async () => {
    const running = await startEmulator({ host: externalAddress, port: 0, fixture: conformanceFixture() });
    try {
      const refused = await send('GET', '/_emulator/requests', `${running.origin}/_emulator/requests`, {});
      expectError(refused, 403, ErrorCodes.loopbackOnly);
      const api = await send('GET', '/auth/session', `${running.baseUrl}/auth/session`, { headers: { authorization: 'Bearer acme-full-key' } });
      expect(api.status).toBe(200);
    } finally {
      await running.close();
    }
  });
});
