import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { rawRequest } from '../helpers/raw-request.js';
import { ACME, postBody, testFixture } from './support.js';

const emulator = useEmulator({ fixture: testFixture() });

/** The emulator's clock now, read without moving it. */
const clockNow = async (): Promise<string> => (await emulator().advanceClock(0)).now;
const json = (body: unknown) => ({ 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(JSON.stringify(body))) });

describe('postsync serve: what a web page or a rebinding name can reach', () => {
  it('answers 421 to a Host that is not a loopback name, on every route', async () => {
    const { origin } = emulator();
    for (const path of ['/public/v1/auth/session', '/_emulator/requests', '/_storage/anything']) {
      const answer = await rawRequest(origin, path, { headers: { host: 'evil.example', authorization: 'Bearer acme-full' } });
      expect([path, answer.status]).toEqual([path, 421]);
      expect(JSON.parse(answer.body).error.code).toBe('misdirected_host');
    }
    const port = new URL(origin).port;
    // By name, not by port: a proxy on another port of this machine may front the emulator.
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'localhost:1', '127.0.0.1']) {
      expect([host, (await rawRequest(origin, '/public/v1/auth/session', { headers: { host, authorization: 'Bearer acme-full' } })).status]).toEqual([host, 200]);
    }
  });

  it('refuses a cross-site POST to /_emulator/clock, as JSON or as a form post, and the clock stays', async () => {
    const { origin, controlToken } = emulator();
    await emulator().setClock(new Date('2031-05-05T00:00:00Z'));
    const body = { now: '2040-01-01T00:00:00Z' };
    const tries: { name: string; headers: Record<string, string>; body: string; status: number }[] = [
      { name: 'Origin of another site', headers: { origin: 'http://evil.example', ...json(body) }, body: JSON.stringify(body), status: 403 },
      { name: 'Origin of another site, with the token', headers: { origin: 'http://evil.example', 'x-postsync-token': controlToken, ...json(body) }, body: JSON.stringify(body), status: 403 },
      { name: 'Sec-Fetch-Site: same-site', headers: { 'sec-fetch-site': 'same-site', ...json(body) }, body: JSON.stringify(body), status: 403 },
      { name: 'a text/plain form post', headers: { origin: 'http://evil.example', 'content-type': 'text/plain' }, body: JSON.stringify(body), status: 403 },
      { name: 'a text/plain post with no Origin', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body), status: 403 },
      { name: 'a text/plain post with the token', headers: { 'content-type': 'text/plain', 'x-postsync-token': controlToken }, body: JSON.stringify(body), status: 415 },
      { name: 'JSON without the token', headers: json(body), body: JSON.stringify(body), status: 403 },
      { name: 'JSON with a wrong token', headers: { ...json(body), 'x-postsync-token': `${controlToken.slice(1)}x` }, body: JSON.stringify(body), status: 403 },
    ];
    for (const attempt of tries) {
      const answer = await rawRequest(origin, '/_emulator/clock', { method: 'POST', headers: attempt.headers, body: attempt.body });
      expect([attempt.name, answer.status]).toEqual([attempt.name, attempt.status]);
    }
    expect(await clockNow()).toMatch(/^2031-05-05T00:00:0/);
    const allowed = await rawRequest(origin, '/_emulator/clock', { method: 'POST', headers: { ...json(body), 'x-postsync-token': controlToken, origin }, body: JSON.stringify(body) });
    expect(allowed.status).toBe(200);
    expect(await clockNow()).toMatch(/^2040-01-01T00:00:0/);
  });

  it('refuses a cross-site POST to /_emulator/reset, and the posts stay', async () => {
    const { origin, controlToken } = emulator();
    const created = await emulator().api('POST', '/posts', { key: 'acme-full', body: postBody(ACME.photo) });
    expect(created.status).toBe(201);
    const attempts: Record<string, string>[] = [{ origin: 'http://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'cross-site', 'x-postsync-token': controlToken }, {}];
    for (const headers of attempts) {
      const answer = await rawRequest(origin, '/_emulator/reset', { method: 'POST', headers });
      expect([headers, answer.status]).toEqual([headers, 403]);
    }
    expect((await emulator().api('GET', `/posts/${created.body.data.id}`, { key: 'acme-full' })).status).toBe(200);
  });

  it('lets a loopback client read the request log without the token, but no web page of another origin', async () => {
    const { origin } = emulator();
    expect((await rawRequest(origin, '/_emulator/requests')).status).toBe(200);
    expect((await rawRequest(origin, '/_emulator/requests', { headers: { origin } })).status).toBe(200);
    const attempts: Record<string, string>[] = [{ origin: 'http://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }];
    for (const headers of attempts) {
      const answer = await rawRequest(origin, '/_emulator/requests', { headers });
      expect([headers, answer.status]).toEqual([headers, 403]);
      expect(JSON.parse(answer.body).error.code).toBe('cross_site_request');
    }
    const deleted = await rawRequest(origin, '/_emulator/requests', { method: 'DELETE' });
    expect([deleted.status, JSON.parse(deleted.body).error.code]).toEqual([403, 'control_token_required']);
  });

  it('answers a malformed address and keeps serving', async () => {
    const { origin } = emulator();
    for (const path of ['/_emulator/%', '/%E0%A4%A', '/public/v1/posts/%', '/_storage/%E0%A4%A', 'http://[']) {
      const answer = await rawRequest(origin, path, { headers: { authorization: 'Bearer acme-full' } });
      expect([path, answer.status, JSON.parse(answer.body).error.code]).toEqual([path, 400, 'malformed_url']);
    }
    expect((await emulator().api('GET', '/auth/session', { key: 'acme-full' })).status).toBe(200);
  });
});
