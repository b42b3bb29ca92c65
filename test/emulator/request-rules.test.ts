import { describe, expect, it } from 'vitest';
import type { Fixture } from '../../src/emulator/index.js';
import { useEmulator } from '../helpers/emulator.js';
import { ACME, postBody, testFixture } from './support.js';

/** What the emulator answers to requests outside the routes' own rules: methods, body types, open platform values. */
const OTHER_D = '11111111-1111-4111-8111-0000000000d0';

function fixtureWithOtherD(): Fixture {
  const fixture = testFixture();
  const acme = fixture.projects[0]!;
  acme.accounts = [...(acme.accounts ?? []), { id: OTHER_D, platform: 'otherD', handle: '@acme.other' }];
  acme.posts = [
    { id: '33333333-3333-4333-8333-000000000001', content: 'On otherD', targets: [{ socialAccountId: OTHER_D }] },
    { id: '33333333-3333-4333-8333-000000000002', content: 'On photoC', targets: [{ socialAccountId: ACME.photo }] },
  ];
  return fixture;
}

const emulator = useEmulator({ fixture: fixtureWithOtherD() });

describe('request rules', () => {
  it('filters posts by any platform, also one the emulator has no rules for', async () => {
    const list = async (platform: string) => emulator().api('GET', `/posts?platform=${encodeURIComponent(platform)}`, { key: 'acme-read' });
    const otherD = await list('otherD');
    expect(otherD.status, JSON.stringify(otherD.body)).toBe(200);
    expect(otherD.body.data.items.map((post: { content: string }) => post.content)).toEqual(['On otherD']);
    expect((await list('photoC')).body.data.items.map((post: { content: string }) => post.content)).toEqual(['On photoC']);
    expect((await list('nobodyHasIt')).body.data.items).toEqual([]);
    const empty = await list('');
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toEqual(['platform must be 1 to 100 characters']);
    const analytics = await emulator().api('GET', '/analytics/posts?platform=otherD', { key: 'acme-read' });
    expect(analytics.status).toBe(200);
  });

  it('answers a wrong method on a known path with 405, Allow and a clear message', async () => {
    const id = '33333333-3333-4333-8333-000000000001';
    const put = await emulator().api('PUT', `/posts/${id}`, { key: 'acme-full', body: { content: 'x' } });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, PATCH, DELETE');
    expect(put.body.error).toEqual({ code: 'method_not_allowed', message: `method PUT is not allowed on /public/v1/posts/${id}; allowed: GET, PATCH, DELETE` });
    const deleteAll = await emulator().api('DELETE', '/posts', { key: 'acme-full' });
    expect(deleteAll.status).toBe(405);
    expect(deleteAll.headers.get('allow')).toBe('POST, GET');
    const unknown = await emulator().api('PUT', '/nothing-here', { key: 'acme-full' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('allow')).toBeNull();
  });

  it('refuses a POST or PATCH body that is not declared application/json with 415, before reading it', async () => {
    const body = JSON.stringify(postBody(ACME.photo));
    const send = (method: string, path: string, headers: Record<string, string>, payload: string | null = body) =>
      fetch(`${emulator().baseUrl}${path}`, { method, headers: { authorization: 'Bearer acme-full', ...headers }, ...(payload === null ? {} : { body: payload }) });
    const before = (await emulator().api('GET', '/posts?limit=100', { key: 'acme-read' })).body.data.items.length;

    const plain = await send('POST', '/posts', { 'content-type': 'text/plain' });
    expect(plain.status).toBe(415);
    expect(((await plain.json()) as { error: unknown }).error).toEqual({
      code: 'unsupported_media_type',
      message: 'request bodies must be JSON with Content-Type: application/json (got Content-Type text/plain)',
    });
    const form = await send('PATCH', '/posts/33333333-3333-4333-8333-000000000001', { 'content-type': 'application/x-www-form-urlencoded' }, 'content=x');
    expect(form.status).toBe(415);
    // fetch sends a string body as text/plain;charset=UTF-8 unless told otherwise.
    const undeclared = await send('POST', '/posts', {});
    expect(undeclared.status).toBe(415);
    expect((await emulator().api('GET', '/posts?limit=100', { key: 'acme-read' })).body.data.items).toHaveLength(before);

    expect((await send('POST', '/posts', { 'content-type': 'application/json; charset=utf-8' })).status).toBe(201);
    expect((await send('POST', '/posts', { 'content-type': 'Application/JSON' })).status).toBe(201);
    // A POST without a body needs no Content-Type; the route decides (here: 400, the body is required).
    const noBody = await send('POST', '/posts', {}, null);
    expect(noBody.status).toBe(400);
  });
});
