import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiClient, ApiError, NetworkError, type ClientEvent, type UploadTicket } from '../../src/api/index.js';
import { REFUSED_API_URL } from '../helpers/refused-url.js';
import { testdir } from '../helpers/testdir.js';
import { dropConnection, sendError, sendJson, startLocalPeer, useCleanup, type LocalPeer, type Responder } from './local-peer.js';

const KEY = 'retry-test-key';
const track = useCleanup();
let events: ClientEvent[] = [];

beforeEach(() => {
  events = [];
});

const ok = (data: unknown): Responder => (_req, res) => sendJson(res, 200, { data, meta: { requestId: 'r' } });

/** A peer answering request n with `script[n]` (the last entry repeats). */
async function scripted(script: Responder[], options: { maxAttempts?: number; timeoutMs?: number; retryBudgetMs?: number } = {}): Promise<{ peer: LocalPeer; client: ApiClient }> {
  const peer = track(await startLocalPeer((req, index, res) => (script[Math.min(index, script.length - 1)] as Responder)(req, res)));
  const client = track(new ApiClient({ baseUrl: peer.baseUrl, apiKey: KEY, onEvent: (event) => events.push(event), ...options }));
  return { peer, client };
}

const error = (status: number, code: string, headers: Record<string, string> = {}): Responder => (_req, res) => sendError(res, status, code, 'no', headers);

describe('retries against a real peer', () => {
  it('retries 503 and 500 with backoff, then returns the answer', async () => {
    const { peer, client } = await scripted([error(503, 'service_unavailable'), error(500, 'internal_error'), ok({ project: { id: 'p' } })]);
    expect(await client.session()).toMatchObject({ project: { id: 'p' } });
    expect(peer.received).toHaveLength(3);
    expect(events.filter((e) => e.type === 'retry').map((e) => e.type === 'retry' && e.reason)).toEqual(['503 service_unavailable', '500 internal_error']);
  });

  it('waits Retry-After on a 409 idempotency_in_progress, then sends the same create again', async () => {
    const { peer, client } = await scripted([error(409, 'idempotency_in_progress', { 'retry-after': '1' }), ok({ id: 'p1' })]);
    expect(await client.createPost({ content: 'x', targets: [], mediaIds: [] }, { idempotencyKey: 'idem-2' })).toMatchObject({ id: 'p1' });
    expect(peer.received.map((r) => r.headers['idempotency-key'])).toEqual(['idem-2', 'idem-2']);
    expect(events.filter((e) => e.type === 'wait')).toMatchObject([{ seconds: 1, reason: '409 idempotency_in_progress' }]);
  });

  it.each([400, 401, 403, 404, 413, 422])('sends a call answered %i only once', async (status) => {
    const { peer, client } = await scripted([error(status, 'nope'), ok({})]);
    await expect(client.getPost('p1')).rejects.toBeInstanceOf(ApiError);
    expect(peer.received).toHaveLength(1);
  });

  it('gives up after maxAttempts with the last answer, counting attempts', async () => {
    const { peer, client } = await scripted([error(503, 'service_unavailable')], { maxAttempts: 3 });
    const failure = await client.getPost('p1').catch((caught: unknown) => caught);
    expect(failure).toMatchObject({ status: 503, attempts: 3 });
    expect(peer.received).toHaveLength(3);
  });

  it('does not wait a Retry-After longer than the time budget', async () => {
    const { peer, client } = await scripted([error(429, 'rate_limited', { 'retry-after': '120' })], { retryBudgetMs: 1_000 });
    await expect(client.getPost('p1')).rejects.toMatchObject({ status: 429, retryAfterSeconds: 120 });
    expect(peer.received).toHaveLength(1);
  });

  it('retries a GET whose connection was dropped, and a POST /posts with the same Idempotency-Key', async () => {
    const { peer, client } = await scripted([(_req, res) => dropConnection(res), ok({ id: 'p1' })]);
    expect(await client.createPost({ content: 'x', targets: [], mediaIds: [] }, { idempotencyKey: 'idem-1' })).toMatchObject({ id: 'p1' });
    expect(peer.received.map((r) => r.headers['idempotency-key'])).toEqual(['idem-1', 'idem-1']);
    expect(peer.received[0]?.body).toBe(peer.received[1]?.body);
  });

  it('retries when no answer comes in time (headers timeout)', async () => {
    const { peer, client } = await scripted([() => undefined, ok({ id: 'p1' })], { timeoutMs: 300 });
    expect(await client.getPost('p1')).toMatchObject({ id: 'p1' });
    expect(peer.received).toHaveLength(2);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ reason: 'UND_ERR_HEADERS_TIMEOUT' });
  });

  it('never repeats POST /media/uploads once it may have reached the server', async () => {
    const { peer, client } = await scripted([(_req, res) => dropConnection(res), ok({})]);
    const failure = await client.createUpload({ kind: 'image', contentType: 'image/png', sizeBytes: 10, fileName: 'a.png' }).catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(NetworkError);
    expect(peer.received).toHaveLength(1);
    const again = await scripted([error(503, 'service_unavailable'), ok({})]);
    await expect(again.client.createUpload({ kind: 'image', contentType: 'image/png', sizeBytes: 10, fileName: 'a.png' })).rejects.toMatchObject({ status: 503 });
    expect(again.peer.received).toHaveLength(1);
  });

  it('repeats POST /media/uploads with its Idempotency-Key after a dropped connection and a 503', async () => {
    const TICKET = { media: { id: 'm1' }, upload: { method: 'PUT', url: 'http://127.0.0.1:9/m1', expiresAt: '2026-01-01T00:15:00Z' } };
    const { peer, client } = await scripted([(_req, res) => dropConnection(res), error(503, 'service_unavailable'), ok(TICKET)]);
    const ticket = await client.createUpload({ kind: 'image', contentType: 'image/png', sizeBytes: 10, fileName: 'a.png' }, { idempotencyKey: 'up-1' });
    expect(ticket).toEqual(TICKET);
    expect(peer.received.map((r) => r.headers['idempotency-key'])).toEqual(['up-1', 'up-1', 'up-1']);
  });

  it('repeats POST /media/uploads when the connection was refused (nothing was sent)', async () => {
    const client = track(new ApiClient({ baseUrl: REFUSED_API_URL, apiKey: KEY, maxAttempts: 3, onEvent: (event) => events.push(event) }));
    const failure = await client.createUpload({ kind: 'image', contentType: 'image/png', sizeBytes: 10, fileName: 'a.png' }).catch((caught: unknown) => caught);
    expect(failure).toMatchObject({ name: 'NetworkError', code: 'ECONNREFUSED', attempts: 3 });
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(2);
  });

  it('re-streams the file from disk when a storage PUT is retried', async () => {
    const dir = await testdir();
    const file = join(dir, 'a.png');
    const bytes = Buffer.from('0123456789'.repeat(10_000));
    await writeFile(file, bytes);
    const { peer, client } = await scripted([(_req, res) => dropConnection(res), (_req, res) => {
      res.writeHead(200, { etag: '"e1"' });
      res.end();
    }]);
    const ticket: UploadTicket = { media: { id: 'm1', kind: 'image', url: '', sourceAvailable: false, contentType: 'image/png' }, upload: { method: 'PUT', url: `${peer.origin}/_storage/m1?sig=abc`, headers: { 'Content-Type': 'image/png' }, expiresAt: '' } };
    const progress: number[] = [];
    await client.uploadSingle(ticket, { path: file, sizeBytes: bytes.length, contentType: 'image/png' }, { onProgress: (sent) => progress.push(sent) });
    const puts = peer.received.filter((r) => r.method === 'PUT');
    expect(puts.length).toBe(2);
    expect(puts[1]?.body).toBe(bytes.toString('utf8'));
    expect(puts[1]?.headers.authorization).toBeUndefined();
    expect(progress.at(-1)).toBe(bytes.length);
  });
});

describe('a gateway page instead of an answer (502, 504 with an HTML body)', () => {
  const page = (status: number): Responder => (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html' });
    res.end(`<html><body><h1>${status} Gateway</h1><p>nginx</p></body></html>`);
  };

  it.each([502, 504])('is retried as the service being away (%i), then the answer is read', async (status) => {
    const { peer, client } = await scripted([page(status), ok({ id: 'p1' })]);
    expect(await client.getPost('p1')).toMatchObject({ id: 'p1' });
    expect(peer.received).toHaveLength(2);
    expect(events.filter((e) => e.type === 'retry').map((e) => e.type === 'retry' && e.reason)).toEqual([`${status} http_${status}`]);
  });

  it.each([502, 504])('left unanswered (%i), is an ApiError naming the endpoint, never a parse TypeError', async (status) => {
    const { peer, client } = await scripted([page(status)], { maxAttempts: 2 });
    const failure = await client.createPost({ content: 'x', targets: [], mediaIds: [] }, { idempotencyKey: 'idem-gw' }).catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status, code: `http_${status}`, method: 'POST', path: '/public/v1/posts', attempts: 2 });
    expect((failure as ApiError).message).toContain('/posts');
    expect((failure as ApiError).message).not.toMatch(/TypeError|Unexpected token|is not valid JSON|<html>/);
    expect(peer.received).toHaveLength(2);
  });
});

describe('a 409 media_not_ready with Retry-After (the service still processes a file)', () => {
  /** Waits go by at once; `now` moves by what was waited. */
  const fakeClock = () => {
    let now = 0;
    const waited: number[] = [];
    return { waited, clock: { now: () => now, sleep: async (ms: number) => void (waited.push(ms), (now += ms)) } };
  };

  it('waits as told and sends the same create again', async () => {
    const { waited, clock } = fakeClock();
    const peer = track(await startLocalPeer((req, index, res) => (index < 2 ? error(409, 'media_not_ready', { 'retry-after': '20' }) : ok({ id: 'p1' }))(req, res)));
    const client = track(new ApiClient({ baseUrl: peer.baseUrl, apiKey: KEY, onEvent: (event) => events.push(event), retryClock: clock }));
    expect(await client.createPost({ content: 'x', targets: [], mediaIds: ['m1'] }, { idempotencyKey: 'idem-m' })).toMatchObject({ id: 'p1' });
    expect(peer.received.map((r) => r.headers['idempotency-key'])).toEqual(['idem-m', 'idem-m', 'idem-m']);
    expect(waited).toEqual([20_000, 20_000]);
    expect(events.filter((e) => e.type === 'wait')).toMatchObject([{ seconds: 20, reason: '409 media_not_ready' }, { seconds: 20 }]);
  });

  it('waits 60 s in all at most, then fails with the service’s answer', async () => {
    const { waited, clock } = fakeClock();
    const peer = track(await startLocalPeer((req, _index, res) => error(409, 'media_not_ready', { 'retry-after': '25' })(req, res)));
    const client = track(new ApiClient({ baseUrl: peer.baseUrl, apiKey: KEY, retryClock: clock }));
    await expect(client.createPost({ content: 'x', targets: [], mediaIds: ['m1'] }, { idempotencyKey: 'idem-m' })).rejects.toMatchObject({ status: 409, code: 'media_not_ready', attempts: 3 });
    expect(waited).toEqual([25_000, 25_000]);
    expect(peer.received).toHaveLength(3);
  });
});
