import { randomUUID } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../src/api/error-codes.js';
import { ALL_PERMISSIONS, type Permission } from '../../src/api/types.js';
import { isLoopbackAddress, startEmulator, type Fixture } from '../../src/emulator/index.js';
import { makePng } from '../helpers/media-generators/index.js';
import { useEmulator, type JsonResponse, type TestEmulator } from '../helpers/emulator.js';

/**
 * Access rules of the emulator, exhaustively: every endpoint × every permission taken away (403
 * `missing_permission` naming it exactly when the endpoint needs it, success otherwise), the
 * minimal key per endpoint, isolation between two projects (404), control endpoints for loopback
 * peers only, and presigned storage URLs that expire and are bound to one object.
 */
const PHOTO = '33333333-3333-4333-8333-000000000001';
const OTHER_PHOTO = '44444444-4444-4444-8444-000000000001';
const FULL = 'acme-full';
const OTHER = 'other-full';
const without = (permission: Permission) => `acme-without-${permission}`;
const only = (permissions: readonly Permission[]) => `acme-only-${permissions.join('+') || 'nothing'}`;

interface Ids {
  /** A completed PNG of project acme, attachable to posts. */
  image: string;
}

interface Endpoint {
  name: string;
  /** Exactly the permissions the call needs. */
  requires: Permission[];
  /** Success status with the right permissions. */
  status: number;
  /** Calls the endpoint with `key`; sets up what it acts on with the full key first. */
  call(api: TestEmulator, key: string, ids: Ids): Promise<JsonResponse>;
  /** For endpoints on one resource: the same call with another project's key must be 404. */
  crossProject?: boolean;
}

const png = makePng({ width: 320, height: 320 });
const future = () => new Date(Date.now() + 30 * 86_400_000).toISOString();
const postBody = (ids: Ids, extra: Record<string, unknown> = {}) => ({ content: 'Permission matrix', targets: [{ socialAccountId: PHOTO }], mediaIds: [ids.image], ...extra });

async function expectStatus(reply: Promise<JsonResponse>, status: number): Promise<JsonResponse> {
  const answer = await reply;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer;
}

async function createPost(api: TestEmulator, ids: Ids, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await expectStatus(api.api('POST', '/posts', { key: FULL, body: postBody(ids, extra), headers: { 'Idempotency-Key': randomUUID() } }), 201);
  return created.body.data.id as string;
}

async function startUpload(api: TestEmulator, body: Record<string, unknown>): Promise<{ id: string; url?: string }> {
  const ticket = await expectStatus(api.api('POST', '/media/uploads', { key: FULL, body }), 201);
  return { id: ticket.body.data.media.id, url: ticket.body.data.upload.url };
}

const imageUpload = { kind: 'image', contentType: 'image/png', sizeBytes: png.length, fileName: 'matrix.png' };
const bigVideo = { kind: 'video', contentType: 'video/mp4', sizeBytes: 40 * 1024 * 1024, fileName: 'big.mp4' };
const put = (url: string, body: Buffer, contentType = 'image/png') => fetch(url, { method: 'PUT', body, headers: { 'Content-Type': contentType } });

/** An image upload with its bytes stored, ready for POST /media/{id}/complete. */
async function storedUpload(api: TestEmulator): Promise<string> {
  const { id, url } = await startUpload(api, imageUpload);
  expect((await put(url!, png)).status).toBe(200);
  return id;
}

async function completedImage(api: TestEmulator): Promise<string> {
  const id = await storedUpload(api);
  await expectStatus(api.api('POST', `/media/${id}/complete`, { key: FULL }), 200);
  return id;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'GET /auth/session', requires: [], status: 200, call: (api, key) => api.api('GET', '/auth/session', { key }) },
  { name: 'GET /accounts', requires: ['accounts-read'], status: 200, call: (api, key) => api.api('GET', '/accounts', { key }) },
  { name: 'GET /accounts/{id}/capabilities', requires: ['accounts-read'], status: 200, crossProject: true, call: (api, key) => api.api('GET', `/accounts/${PHOTO}/capabilities`, { key }) },
  { name: 'GET /posts', requires: ['posts-read'], status: 200, call: (api, key) => api.api('GET', '/posts', { key }) },
  { name: 'GET /posts/{id}', requires: ['posts-read'], status: 200, crossProject: true, call: async (api, key, ids) => api.api('GET', `/posts/${await createPost(api, ids)}`, { key }) },
  { name: 'POST /posts (a draft)', requires: ['posts-write'], status: 201, call: (api, key, ids) => api.api('POST', '/posts', { key, body: postBody(ids), headers: { 'Idempotency-Key': randomUUID() } }) },
  {
    name: 'POST /posts (scheduled)',
    requires: ['posts-write', 'posts-publish'],
    status: 201,
    call: (api, key, ids) => api.api('POST', '/posts', { key, body: postBody(ids, { scheduledAt: future() }), headers: { 'Idempotency-Key': randomUUID() } }),
  },
  { name: 'PATCH /posts/{id} (edit a draft)', requires: ['posts-write'], status: 200, crossProject: true, call: async (api, key, ids) => api.api('PATCH', `/posts/${await createPost(api, ids)}`, { key, body: { content: 'edited' } }) },
  {
    name: 'PATCH /posts/{id} (schedule a draft)',
    requires: ['posts-write', 'posts-publish'],
    status: 200,
    crossProject: true,
    call: async (api, key, ids) => api.api('PATCH', `/posts/${await createPost(api, ids)}`, { key, body: { scheduledAt: future() } }),
  },
  {
    name: 'PATCH /posts/{id} (edit a scheduled post)',
    requires: ['posts-write', 'posts-publish'],
    status: 200,
    crossProject: true,
    call: async (api, key, ids) => api.api('PATCH', `/posts/${await createPost(api, ids, { scheduledAt: future() })}`, { key, body: { content: 'edited' } }),
  },
  {
    name: 'PATCH /posts/{id} (unschedule)',
    requires: ['posts-write', 'posts-publish'],
    status: 200,
    call: async (api, key, ids) => api.api('PATCH', `/posts/${await createPost(api, ids, { scheduledAt: future() })}`, { key, body: { scheduledAt: null } }),
  },
  { name: 'DELETE /posts/{id} (a draft)', requires: ['posts-delete'], status: 200, crossProject: true, call: async (api, key, ids) => api.api('DELETE', `/posts/${await createPost(api, ids)}`, { key }) },
  { name: 'DELETE /posts/{id} (a scheduled post)', requires: ['posts-delete'], status: 200, call: async (api, key, ids) => api.api('DELETE', `/posts/${await createPost(api, ids, { scheduledAt: future() })}`, { key }) },
  { name: 'POST /media/uploads', requires: ['media-write'], status: 201, call: (api, key) => api.api('POST', '/media/uploads', { key, body: imageUpload }) },
  { name: 'POST /media/{id}/complete', requires: ['media-write'], status: 200, crossProject: true, call: async (api, key) => api.api('POST', `/media/${await storedUpload(api)}/complete`, { key }) },
  {
    name: 'POST /media/{id}/multipart (list)',
    requires: ['media-write'],
    status: 200,
    crossProject: true,
    call: async (api, key) => api.api('POST', `/media/${(await startUpload(api, bigVideo)).id}/multipart`, { key, body: { operation: 'list' } }),
  },
  {
    name: 'POST /media/{id}/multipart (sign)',
    requires: ['media-write'],
    status: 200,
    call: async (api, key) => api.api('POST', `/media/${(await startUpload(api, bigVideo)).id}/multipart`, { key, body: { operation: 'sign', partNumber: 1 } }),
  },
  { name: 'GET /analytics/posts', requires: ['posts-read'], status: 200, call: (api, key) => api.api('GET', '/analytics/posts', { key }) },
];

function matrixFixture(): Fixture {
  const minimalSets = [...new Map(ENDPOINTS.map((endpoint) => [only(endpoint.requires), endpoint.requires])).entries()];
  return {
    projects: [
      {
        id: 'acme',
        keys: [
          { token: FULL, permissions: [...ALL_PERMISSIONS] },
          ...ALL_PERMISSIONS.map((permission) => ({ token: without(permission), permissions: ALL_PERMISSIONS.filter((p) => p !== permission) })),
          ...minimalSets.map(([token, permissions]) => ({ token, permissions: [...permissions] })),
        ],
        accounts: [{ id: PHOTO, platform: 'photoC', handle: '@acme.photo' }],
      },
      { id: 'other', keys: [{ token: OTHER, permissions: [...ALL_PERMISSIONS] }], accounts: [{ id: OTHER_PHOTO, platform: 'photoC', handle: '@other.photo' }] },
    ],
  };
}

describe('permission matrix: every endpoint × every permission', () => {
  const emulator = useEmulator({ fixture: matrixFixture() });
  const cells = ENDPOINTS.flatMap((endpoint) => ALL_PERMISSIONS.map((missing) => ({ endpoint: endpoint.name, missing, needed: endpoint.requires.includes(missing) })));

  it('covers every API route the emulator serves', async () => {
    const { apiRoutes } = await import('../../src/emulator/endpoints/routes.js');
    const covered = new Set(ENDPOINTS.map((endpoint) => endpoint.name.split(' (')[0]!.replace(/\{id\}/g, ':id').replace('/accounts/:id/', '/accounts/:accountId/')));
    expect(apiRoutes.map((route) => `${route.method} ${route.path}`).filter((route) => !covered.has(route))).toEqual([]);
  });

  it.each(cells)('$endpoint without $missing: 403 naming it when needed ($needed), success otherwise', async ({ endpoint: name, missing, needed }) => {
    const api = emulator();
    const endpoint = ENDPOINTS.find((candidate) => candidate.name === name)!;
    const ids = { image: await completedImage(api) };
    const reply = await endpoint.call(api, without(missing), ids);
    if (needed) {
      expect(reply.status, JSON.stringify(reply.body)).toBe(403);
      expect(reply.body.error.code).toBe(ErrorCodes.missingPermission);
      expect(reply.body.error.message).toContain(`\`${missing}\``);
    } else {
      expect(reply.status, JSON.stringify(reply.body)).toBe(endpoint.status);
    }
  });

  it.each(ENDPOINTS)('$name succeeds with exactly the permissions it needs ($requires)', async (endpoint) => {
    const api = emulator();
    const ids = { image: await completedImage(api) };
    const reply = await endpoint.call(api, only(endpoint.requires), ids);
    expect(reply.status, JSON.stringify(reply.body)).toBe(endpoint.status);
    expect((await endpoint.call(api, FULL, ids)).status).toBe(endpoint.status);
  });

  it('a refused write changed nothing: the post and the upload are as they were', async () => {
    const api = emulator();
    const ids = { image: await completedImage(api) };
    const id = await createPost(api, ids, { scheduledAt: future() });
    await expectStatus(api.api('PATCH', `/posts/${id}`, { key: without('posts-publish'), body: { content: 'sneaky' } }), 403);
    await expectStatus(api.api('DELETE', `/posts/${id}`, { key: without('posts-delete') }), 403);
    const after = await expectStatus(api.api('GET', `/posts/${id}`, { key: FULL }), 200);
    expect(after.body.data).toMatchObject({ status: 'scheduled', content: 'Permission matrix' });
    const upload = await storedUpload(api);
    await expectStatus(api.api('POST', `/media/${upload}/complete`, { key: without('media-write') }), 403);
    const attach = await api.api('POST', '/posts', { key: FULL, body: postBody({ image: upload }), headers: { 'Idempotency-Key': randomUUID() } });
    expect(attach.status).toBe(400);
    expect(attach.body.error.message).toEqual([expect.stringContaining('is not a completed upload')]);
  });

  describe('another project', () => {
    it.each(ENDPOINTS.filter((endpoint) => endpoint.crossProject))('$name on a resource of another project is 404', async (endpoint) => {
      const api = emulator();
      const ids = { image: await completedImage(api) };
      const reply = await endpoint.call(api, OTHER, ids);
      expect(reply.status, JSON.stringify(reply.body)).toBe(404);
      expect(reply.body.error.code).toBe(ErrorCodes.notFound);
    });

    it('sees none of its posts, accounts or media, and cannot target or attach them', async () => {
      const api = emulator();
      const ids = { image: await completedImage(api) };
      const acmePost = await createPost(api, ids);
      const posts = await expectStatus(api.api('GET', '/posts?limit=100', { key: OTHER }), 200);
      expect(posts.body.data.items.map((post: { id: string }) => post.id)).not.toContain(acmePost);
      const accounts = await expectStatus(api.api('GET', '/accounts', { key: OTHER }), 200);
      expect(accounts.body.data.items.map((account: { id: string }) => account.id)).toEqual([OTHER_PHOTO]);
      const borrowed = await api.api('POST', '/posts', {
        key: OTHER,
        body: { content: 'x', targets: [{ socialAccountId: PHOTO }], mediaIds: [ids.image] },
        headers: { 'Idempotency-Key': randomUUID() },
      });
      expect(borrowed.status).toBe(400);
      expect(borrowed.body.error.message).toEqual(
        expect.arrayContaining([expect.stringContaining(`${PHOTO} is not an account of this project`), expect.stringContaining(`${ids.image} is not a media object of this project`)]),
      );
      const edit = await api.api('PATCH', `/posts/${acmePost}`, { key: OTHER, body: { content: 'x' } });
      expect(edit.status).toBe(404);
      expect((await api.api('GET', `/posts/${acmePost}`, { key: FULL })).body.data.content).toBe('Permission matrix');
    });

    it('an Idempotency-Key used in one project does not return the other project\'s post', async () => {
      const api = emulator();
      const ids = { image: await completedImage(api) };
      const key = randomUUID();
      const mine = await expectStatus(api.api('POST', '/posts', { key: FULL, body: postBody(ids), headers: { 'Idempotency-Key': key } }), 201);
      const theirs = await api.api('POST', '/posts', { key: OTHER, body: { content: 'Theirs', targets: [{ socialAccountId: OTHER_PHOTO }], mediaIds: [] }, headers: { 'Idempotency-Key': key } });
      expect(theirs.status).toBe(201);
      expect(theirs.body.data.id).not.toBe(mine.body.data.id);
    });
  });
});

/** This machine's own non-loopback IPv4 address, if it has one (traffic to it never leaves the host). */
const ownAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address !== undefined && address.family === 'IPv4' && !address.internal)?.address;

describe('control endpoints answer loopback peers only', () => {
  it('the guard: loopback addresses only', () => {
    for (const address of ['127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ['10.1.2.3', '172.16.0.1', '192.168.0.10', '::ffff:10.1.2.3', 'fe80::1', '::', '0.0.0.0', '128.0.0.1', '', undefined]) {
      expect(isLoopbackAddress(address), String(address)).toBe(false);
    }
    if (ownAddress) expect(isLoopbackAddress(ownAddress)).toBe(false);
  });

  it.skipIf(!ownAddress)('over a real connection from this machine\'s own interface address: every control route is 403, and none takes effect', async () => {
    const fixture = matrixFixture();
    const served = await startEmulator({ host: ownAddress, port: 0, fixture });
    try {
      const origin = served.origin;
      expect(new URL(origin).hostname).toBe(ownAddress);
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${origin}${path}`, { method, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${FULL}` }, body: body === undefined ? undefined : JSON.stringify(body) });
      const image = await (async () => {
        const ticket = (await (await call('POST', '/public/v1/media/uploads', imageUpload)).json()) as any;
        expect((await put(ticket.data.upload.url, png)).status).toBe(200);
        expect((await call('POST', `/public/v1/media/${ticket.data.media.id}/complete`)).status).toBe(200);
        return ticket.data.media.id as string;
      })();
      const soon = new Date(Date.now() + 3_600_000).toISOString();
      const created = (await (await fetch(`${origin}/public/v1/posts`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${FULL}`, 'Idempotency-Key': randomUUID() },
        body: JSON.stringify({ content: 'Due in an hour', targets: [{ socialAccountId: PHOTO }], mediaIds: [image], scheduledAt: soon }),
      })).json()) as any;
      const routes: [string, string, unknown?][] = [
        ['GET', '/_emulator/requests'],
        ['DELETE', '/_emulator/requests'],
        ['POST', '/_emulator/clock', { advanceSeconds: 7200 }],
        ['POST', '/_emulator/faults', { spec: 'rate=1,seed=1,kinds=503' }],
        ['POST', '/_emulator/reset'],
        ['GET', '/_emulator/anything-else'],
      ];
      for (const [method, path, body] of routes) {
        const refused = await call(method, path, body);
        expect(refused.status, `${method} ${path}`).toBe(403);
        expect(((await refused.json()) as any).error.code).toBe(ErrorCodes.loopbackOnly);
      }
      // No reset, no clock jump (the post is still scheduled, not published), no faults.
      const post = await call('GET', `/public/v1/posts/${created.data.id}`);
      expect(post.status).toBe(200);
      expect(((await post.json()) as any).data.status).toBe('scheduled');
    } finally {
      await served.close();
    }
  });
});

describe('presigned storage URLs', () => {
  const emulator = useEmulator({ fixture: matrixFixture() });

  it('expire 15 minutes (emulator time) after they are issued', async () => {
    const api = emulator();
    const early = await startUpload(api, imageUpload);
    const late = await startUpload(api, imageUpload);
    await api.advanceClock(14 * 60);
    expect((await put(early.url!, png)).status).toBe(200);
    await api.advanceClock(2 * 60);
    const expired = await put(late.url!, png);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as any).error.code).toBe(ErrorCodes.urlExpired);
    expect((await api.api('POST', `/media/${late.id}/complete`, { key: FULL })).body.error.code).toBe(ErrorCodes.uploadIncomplete);
  });

  it('multipart part URLs expire too', async () => {
    const api = emulator();
    const { id } = await startUpload(api, bigVideo);
    const signed = await expectStatus(api.api('POST', `/media/${id}/multipart`, { key: FULL, body: { operation: 'sign', partNumber: 1 } }), 200);
    await api.advanceClock(16 * 60);
    const expired = await put(signed.body.data.url, Buffer.alloc(16), 'video/mp4');
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as any).error.code).toBe(ErrorCodes.urlExpired);
  });

  it('cannot be used for another object: another upload, another part, the assembled object, or with the expiry changed', async () => {
    const api = emulator();
    const a = await startUpload(api, imageUpload);
    const b = await startUpload(api, imageUpload);
    const urlA = new URL(a.url!);
    const urlB = new URL(b.url!);
    const attempts = [`${urlB.origin}${urlB.pathname}${urlA.search}`];
    const video = await startUpload(api, bigVideo);
    const sign = async (partNumber: number) => new URL((await expectStatus(api.api('POST', `/media/${video.id}/multipart`, { key: FULL, body: { operation: 'sign', partNumber } }), 200)).body.data.url);
    const part1 = await sign(1);
    const part2 = await sign(2);
    attempts.push(`${part2.origin}${part2.pathname}${part1.search}`, `${part1.origin}${part1.pathname.replace(/uploads\/.*$/, `media/${video.id}/big.mp4`)}${part1.search}`);
    const stretched = new URL(urlA);
    stretched.searchParams.set('expires', String(Number(urlA.searchParams.get('expires')) + 86_400));
    attempts.push(stretched.toString());
    for (const url of attempts) {
      const refused = await put(url, png);
      expect(refused.status, url).toBe(403);
      expect(((await refused.json()) as any).error.code, url).toBe(ErrorCodes.signatureInvalid);
    }
    // Nothing was stored for B by A's signature.
    expect((await api.api('POST', `/media/${b.id}/complete`, { key: FULL })).body.error.code).toBe(ErrorCodes.uploadIncomplete);
  });

  it('cannot overwrite an object once its upload is completed', async () => {
    const api = emulator();
    const { id, url } = await startUpload(api, imageUpload);
    expect((await put(url!, png)).status).toBe(200);
    const media = await expectStatus(api.api('POST', `/media/${id}/complete`, { key: FULL }), 200);
    const again = await put(url!, makePng({ width: 320, height: 320, rgb: { r: 255, g: 0, b: 0 } }));
    expect(again.status).toBe(409);
    expect(((await again.json()) as any).error.code).toBe(ErrorCodes.uploadClosed);
    const served = Buffer.from(await (await fetch(media.body.data.url)).arrayBuffer());
    expect(served.equals(png)).toBe(true);
  });
});
