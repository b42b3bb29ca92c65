import { beforeEach, describe, expect, it } from 'vitest';
import { ApiClient, ApiError, type ClientEvent } from '../../src/api/index.js';
import { ALL_PERMISSIONS } from '../../src/api/types.js';
import { Chaos, type FaultKind } from '../../src/emulator/http/chaos.js';
import type { Fixture } from '../../src/emulator/index.js';
import { useEmulator } from '../helpers/emulator.js';
import { useCleanup } from './local-peer.js';

const ACCOUNT = '5a000000-0000-4000-8000-000000000001';
const KEYS = { full: 'chaos-full-key', paused: 'chaos-paused-key', noPublish: 'chaos-nopublish-key' };
const fixture: Fixture = {
  projects: [
    {
      id: 'chaos',
      keys: [
        { token: KEYS.full, permissions: [...ALL_PERMISSIONS] },
        { token: KEYS.paused, permissions: [...ALL_PERMISSIONS], paused: true },
        { token: KEYS.noPublish, permissions: ALL_PERMISSIONS.filter((p) => p !== 'posts-publish') },
      ],
      accounts: [{ id: ACCOUNT, platform: 'photoC', handle: '@chaos', status: 'active' }],
    },
  ],
};
const emulator = useEmulator({ fixture });
const track = useCleanup();
let events: ClientEvent[];

beforeEach(async () => {
  await emulator().reset();
  events = [];
});

function clientWith(key: string): ApiClient {
  return track(new ApiClient({ baseUrl: emulator().baseUrl, apiKey: key, onEvent: (event) => events.push(event) }));
}

/**
 * The emulator draws one fault decision per request from a seeded PRNG; this finds a seed whose
 * first decisions are exactly `faults` (true: a fault of `kind`), so a test controls which attempts fail.
 */
function seedFor(kind: FaultKind, faults: boolean[]): string {
  for (let seed = 1; seed < 100_000; seed += 1) {
    const chaos = new Chaos();
    chaos.configure({ rate: 0.5, seed, kinds: [kind] });
    if (faults.every((fault) => (chaos.next() !== undefined) === fault)) return `rate=0.5,seed=${seed},kinds=${kind}`;
  }
  throw new Error('no seed found');
}

const apiLog = async () => (await emulator().requestLog()).filter((entry) => entry.path.startsWith('/public/v1/'));
const draft = { content: 'Hello', targets: [{ socialAccountId: ACCOUNT }], mediaIds: [] };

describe('retry rules proven with the emulator chaos mode and request log', () => {
  it('a lost response to POST /posts is retried with the same key and yields exactly one post', async () => {
    await emulator().setFaults(seedFor('reset-after', [true, false]));
    const post = await clientWith(KEYS.full).createPost(draft, { idempotencyKey: 'lost-response-1' });
    await emulator().setFaults('');
    const log = await apiLog();
    expect(log.map((e) => [e.method, e.status, e.idempotencyKey, e.fault ?? null])).toEqual([
      ['POST', 201, 'lost-response-1', 'reset-after'],
      ['POST', 201, 'lost-response-1', null],
    ]);
    const all = await emulator().api('GET', '/posts?limit=100', { key: KEYS.full });
    expect(all.body.data.items.map((p: { id: string }) => p.id)).toEqual([post.id]);
  });

  it('a 429 waits exactly Retry-After before the next attempt', async () => {
    await emulator().setFaults(seedFor('429', [true, false]));
    await clientWith(KEYS.full).session();
    const log = await apiLog();
    expect(log.map((e) => e.status)).toEqual([429, 200]);
    expect(events.filter((e) => e.type === 'wait')).toEqual([
      { type: 'wait', operation: 'reading the API key session', method: 'GET', path: '/public/v1/auth/session', attempt: 1, seconds: 1, reason: '429 rate_limited' },
    ]);
    expect(Date.parse(log[1]!.time) - Date.parse(log[0]!.time)).toBeGreaterThanOrEqual(1000);
  });

  it('500 and 503 are retried until an answer comes', async () => {
    await emulator().setFaults(seedFor('500', [true, false]));
    await clientWith(KEYS.full).accounts();
    await emulator().setFaults(seedFor('503', [true, true, false]));
    await clientWith(KEYS.full).session();
    expect((await apiLog()).map((e) => e.status)).toEqual([500, 200, 503, 503, 200]);
    expect(events.filter((e) => e.type === 'retry').map((e) => e.type === 'retry' && e.reason)).toEqual(['500 internal_error', '503 service_unavailable', '503 service_unavailable']);
  });

  it('a paused key (403) is sent once, with a message that says what to do', async () => {
    const failure = await clientWith(KEYS.paused).listPostsPage({}).catch((caught: unknown) => caught);
    expect(failure).toMatchObject({ status: 403, code: 'api_key_paused', attempts: 1 });
    expect((failure as ApiError).message).toContain('ask them to resume it or use another key');
    expect(await apiLog()).toHaveLength(1);
  });

  it('a missing permission (403) is sent once and names the permission and the operation', async () => {
    const post = await clientWith(KEYS.full).createPost(draft, { idempotencyKey: 'perm-1' });
    await emulator().clearLog();
    const failure = await clientWith(KEYS.noPublish).updatePost(post.id, { scheduledAt: '2099-01-01T00:00:00Z' }).catch((caught: unknown) => caught);
    expect(failure).toMatchObject({ status: 403, code: 'missing_permission', attempts: 1 });
    expect((failure as ApiError).message).toContain('scheduling a post needs the posts-publish permission');
    expect(await apiLog()).toHaveLength(1);
  });

  it('400, 404, 413 and 422 are sent once', async () => {
    const client = clientWith(KEYS.full);
    await client.createPost(draft, { idempotencyKey: 'reused-1' });
    await emulator().clearLog();
    await expect(client.createPost({ ...draft, content: 'x'.repeat(10_001) }, { idempotencyKey: 'too-long' })).rejects.toMatchObject({ status: 400, code: 'validation_failed' });
    await expect(client.getPost('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 404 });
    await expect(client.createPost({ ...draft, content: 'other' }, { idempotencyKey: 'reused-1' })).rejects.toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    await expect(client.updatePost('00000000-0000-4000-8000-000000000000', { content: 'x'.repeat(150_000) })).rejects.toMatchObject({ status: 413, code: 'payload_too_large' });
    expect((await apiLog()).map((e) => e.status)).toEqual([400, 404, 422, 413]);
    expect(events.filter((e) => e.type === 'retry' || e.type === 'wait')).toEqual([]);
  });
});
