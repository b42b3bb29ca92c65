import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { isLoopbackAddress, parseChaosSpec, startEmulator } from '../../src/emulator/index.js';
import { startTestEmulator, useEmulator, type TestEmulator } from '../helpers/emulator.js';
import { ACME, postBody, testFixture } from './support.js';

const emulator = useEmulator({ fixture: testFixture() });

/** What a control request that changes something sends: the process's token and a JSON body. */
const controlHeaders = () => ({ 'Content-Type': 'application/json', 'X-Postsync-Token': emulator().controlToken });

const externalAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;

describe('control endpoints', () => {
  it('recognises loopback peers only', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ['10.0.0.1', '192.168.1.20', '::ffff:192.168.1.20', 'fe80::1', '::', '', undefined]) expect(isLoopbackAddress(address), String(address)).toBe(false);
  });

  it.skipIf(!externalAddress)('refuses a non-loopback peer with 403 over a real connection', async () => {
    const open = await startEmulator({ host: '0.0.0.0' });
    try {
      const port = new URL(open.origin).port;
      const refused = await fetch(`http://${externalAddress}:${port}/_emulator/requests`);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as any).error.code).toBe('loopback_only');
      const api = await fetch(`http://${externalAddress}:${port}/public/v1/auth/session`, { headers: { Authorization: 'Bearer demo-key' } });
      expect(api.status).toBe(200);
      expect((await fetch(`${open.origin}/_emulator/requests`)).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('logs every API and storage request, and clears the log', async () => {
    await emulator().clearLog();
    const created = await emulator().api('POST', '/posts', { key: 'acme-full', body: postBody(ACME.photo), headers: { 'Idempotency-Key': 'log-key' } });
    await emulator().api('GET', '/posts?limit=1', { key: 'nobody' });
    const log = await emulator().requestLog();
    expect(log).toEqual([
      { method: 'POST', path: '/public/v1/posts', query: '', status: 201, idempotencyKey: 'log-key', requestId: created.body.meta.requestId, time: expect.any(String) },
      { method: 'GET', path: '/public/v1/posts', query: 'limit=1', status: 401, idempotencyKey: null, requestId: expect.any(String), time: expect.any(String) },
    ]);
    expect(JSON.stringify(log)).not.toContain('acme-full');
    await emulator().clearLog();
    expect(await emulator().requestLog()).toEqual([]);
  });

  it('moves the clock by seconds or to an instant, and validates the body', async () => {
    const before = Date.parse((await emulator().advanceClock(0)).now);
    const moved = Date.parse((await emulator().advanceClock(86_400)).now);
    expect(moved - before).toBeGreaterThanOrEqual(86_400_000);
    expect((await emulator().setClock(new Date('2031-05-05T00:00:00Z'))).now.startsWith('2031-05-05T00:00:0')).toBe(true);
    const bad = await fetch(`${emulator().origin}/_emulator/clock`, { method: 'POST', headers: controlHeaders(), body: JSON.stringify({ advanceSeconds: 'soon', now: 'x' }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.message).toEqual([
      'send exactly one of advanceSeconds (number) or now (date-time)',
      'advanceSeconds must be a number',
      'now must be an RFC 3339 date-time with Z or an offset',
    ]);
    expect((await fetch(`${emulator().origin}/_emulator/nothing`)).status).toBe(404);
    await emulator().setClock(new Date());
  });

  it('resets to the fixture: no posts, media or log; clock back to its start', async () => {
    const target = await startTestEmulator({ fixture: testFixture(), now: new Date('2030-01-01T00:00:00Z') });
    try {
      await target.api('POST', '/posts', { key: 'acme-full', body: postBody(ACME.photo) });
      await target.advanceClock(3600 * 24 * 3);
      await target.reset();
      expect((await target.api('GET', '/posts', { key: 'acme-full' })).body.data.items).toEqual([]);
      expect((await target.advanceClock(0)).now.startsWith('2030-01-01T00:0')).toBe(true);
      expect((await target.requestLog()).map((e) => e.path)).toEqual(['/public/v1/posts']);
    } finally {
      await target.close();
    }
  });
});

describe('chaos', () => {
  async function statuses(target: TestEmulator, count: number): Promise<Array<number | string>> {
    const seen: Array<number | string> = [];
    for (let i = 0; i < count; i++) {
      try {
        seen.push((await target.api('GET', '/auth/session', { key: 'acme-read' })).status);
      } catch {
        seen.push('reset');
      }
    }
    return seen;
  }

  it('parses the --chaos syntax and reports every mistake', () => {
    expect(parseChaosSpec('rate=0.2,seed=42')).toEqual({ rate: 0.2, seed: 42, kinds: ['503', '500', '429', 'reset', 'reset-after', 'slow'] });
    expect(parseChaosSpec('rate=1,seed=7,kinds=503+reset')).toEqual({ rate: 1, seed: 7, kinds: ['503', 'reset'] });
    expect(() => parseChaosSpec('rate=2,seed=x,kinds=boom,color=red')).toThrow(/rate must be.*seed must be.*kinds must be.*unknown chaos setting color/);
  });

  it('gives the same fault sequence for the same seed, and never faults control endpoints', async () => {
    await emulator().setFaults('rate=0.5,seed=42,kinds=503+500+429+reset');
    const first = await statuses(emulator(), 40);
    await emulator().setFaults('rate=0.5,seed=42,kinds=503+500+429+reset');
    const second = await statuses(emulator(), 40);
    await emulator().setFaults('rate=0.5,seed=43,kinds=503+500+429+reset');
    const other = await statuses(emulator(), 40);
    await emulator().setFaults('rate=0');
    expect(second).toEqual(first);
    expect(other).not.toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 503, 500, 429, 'reset']));
  });

  it('applies the same sequence when given at start (--chaos), including to storage', async () => {
    const runs = await Promise.all(
      [1, 2].map(async () => {
        const target = await startTestEmulator({ fixture: testFixture(), chaos: 'rate=0.3,seed=9,kinds=503' });
        try {
          return await statuses(target, 25);
        } finally {
          await target.close();
        }
      }),
    );
    expect(runs[0]).toEqual(runs[1]);
    expect(runs[0]).toContain(503);
    await emulator().setFaults('rate=1,seed=1,kinds=503');
    const storage = await fetch(`${emulator().origin}/_storage/media/x/y`, { method: 'PUT', body: 'x' });
    expect(storage.status).toBe(503);
    expect((await emulator().requestLog()).at(-1)).toMatchObject({ path: '/_storage/media/x/y', status: 503, fault: '503' });
    await emulator().setFaults('rate=0');
  });

  it('reset-after processes the request, then drops the answer; a retry with the key gets the post', async () => {
    await emulator().setFaults('rate=1,seed=3,kinds=reset-after');
    const body = postBody(ACME.photo, { content: 'lost answer' });
    await expect(emulator().api('POST', '/posts', { key: 'acme-full', body, headers: { 'Idempotency-Key': 'lost-1' } })).rejects.toThrow();
    await emulator().setFaults('rate=0');
    const entry = (await emulator().requestLog()).find((e) => e.idempotencyKey === 'lost-1');
    expect(entry).toMatchObject({ status: 201, fault: 'reset-after' });
    const retry = await emulator().api('POST', '/posts', { key: 'acme-full', body, headers: { 'Idempotency-Key': 'lost-1' } });
    expect(retry.status).toBe(201);
    const listed = await emulator().api('GET', '/posts?q=lost%20answer', { key: 'acme-full' });
    expect(listed.body.data.items.map((p: any) => p.id)).toEqual([retry.body.data.id]);
  });

  it('reset drops the connection before processing; slow still answers; 429 carries Retry-After: 1', async () => {
    await emulator().setFaults('rate=1,seed=3,kinds=reset');
    await expect(emulator().api('POST', '/posts', { key: 'acme-full', body: postBody(ACME.photo, { content: 'never' }) })).rejects.toThrow();
    await emulator().setFaults('rate=1,seed=3,kinds=slow');
    expect((await emulator().api('GET', '/auth/session', { key: 'acme-read' })).status).toBe(200);
    await emulator().setFaults('rate=1,seed=3,kinds=429');
    const limited = await emulator().api('GET', '/auth/session', { key: 'acme-read' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    await emulator().setFaults('rate=0');
    expect((await emulator().api('GET', '/posts?q=never', { key: 'acme-full' })).body.data.items).toEqual([]);
    const faults = (await emulator().requestLog()).slice(-4, -1).map((e) => [e.fault, e.status]);
    expect(faults).toEqual([['reset', null], ['slow', 200], ['429', 429]]);
  });

  it('refuses an invalid spec at start and on the faults endpoint', async () => {
    await expect(startEmulator({ chaos: 'rate=7' })).rejects.toThrow(/rate must be a number from 0 to 1/);
    const bad = await fetch(`${emulator().origin}/_emulator/faults`, { method: 'POST', headers: controlHeaders(), body: JSON.stringify({ spec: 'kinds=fire' }) });
    expect(bad.status).toBe(400);
  });
});
