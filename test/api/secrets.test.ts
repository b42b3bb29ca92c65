import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ApiClient, ApiError, NetworkError, type ClientEvent } from '../../src/api/index.js';
import { PostsyncError } from '../../src/errors.js';
import { useEmulator } from '../helpers/emulator.js';
import { sendError, startLocalPeer, useCleanup } from './local-peer.js';

const SECRET = 'psk_live_RECOGNIZABLE_7f3a9c2e5b';
const emulator = useEmulator();
const track = useCleanup();

function clientFor(baseUrl: string, events: ClientEvent[], options: { debug?: boolean; maxAttempts?: number } = {}): ApiClient {
  return track(new ApiClient({ baseUrl, apiKey: SECRET, onEvent: (event) => events.push(event), debug: true, ...options }));
}

/** Every way a thrown error or an event might be shown or logged. */
function renderings(value: unknown): string[] {
  const error = value as Error & { hint?: string };
  return [String(error?.message), String(error?.hint), JSON.stringify(value), inspect(value, { depth: 10, showHidden: true }), String(error?.stack)];
}

function expectNoSecret(values: unknown[]): void {
  for (const value of values) for (const text of renderings(value)) expect(text).not.toContain(SECRET);
}

describe('the API key never leaks', () => {
  it('from an ApiError (the key rejected with 401), nor from debug lines, which redact the header', async () => {
    const events: ClientEvent[] = [];
    const failure = await clientFor(emulator().baseUrl, events).session().catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 401 });
    expectNoSecret([failure, ...events]);
    const debug = events.filter((e) => e.type === 'debug').map((e) => (e.type === 'debug' ? e.message : ''));
    expect(debug).toHaveLength(1);
    expect(debug[0]).toMatch(/^postsync:api GET \/public\/v1\/auth\/session -> 401 request-id=\S+ \d+ms attempt=1 Authorization: Bearer \*\*\*$/);
  });

  it('when a server echoes the key in its error message', async () => {
    const peer = track(await startLocalPeer((req, _i, res) => sendError(res, 400, 'validation_failed', [`bad header ${req.headers.authorization}`])));
    const events: ClientEvent[] = [];
    const failure = await clientFor(peer.baseUrl, events).getPost('p1').catch((caught: unknown) => caught);
    expect((failure as ApiError).messages).toEqual(['bad header Bearer ***']);
    expectNoSecret([failure, ...events]);
  });

  it('from a NetworkError after retries', async () => {
    const peer = track(await startLocalPeer((_req, _i, res) => res.socket?.destroy()));
    const events: ClientEvent[] = [];
    const failure = await clientFor(peer.baseUrl, events, { maxAttempts: 2 }).getPost('p1').catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(NetworkError);
    expect(events.map((e) => e.type)).toEqual(['debug', 'retry', 'debug']);
    expectNoSecret([failure, ...events]);
  });

  it('POSTSYNC_DEBUG=1 turns debug lines on when the option is not given', async () => {
    const events: ClientEvent[] = [];
    const before = process.env.POSTSYNC_DEBUG;
    process.env.POSTSYNC_DEBUG = '1';
    try {
      const client = track(new ApiClient({ baseUrl: emulator().baseUrl, apiKey: SECRET, onEvent: (event) => events.push(event) }));
      await client.session().catch(() => undefined);
    } finally {
      if (before === undefined) delete process.env.POSTSYNC_DEBUG;
      else process.env.POSTSYNC_DEBUG = before;
    }
    expect(events.filter((e) => e.type === 'debug')).toHaveLength(1);
  });

  it('from the client object itself', () => {
    const client = clientFor(emulator().baseUrl, []);
    expect(JSON.stringify(client)).not.toContain(SECRET);
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(SECRET);
  });
});

describe('plain http:// is refused unless the host is loopback', () => {
  it.each(['http://api.example.com/public/v1', 'http://10.0.0.1/public/v1', 'ftp://127.0.0.1/public/v1'])('refuses %s with a hint', (baseUrl) => {
    let thrown: unknown;
    try {
      clientFor(baseUrl, []);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PostsyncError);
    expect((thrown as PostsyncError).hint).toMatch(/https:\/\//);
  });

  it.each(['http://127.0.0.1:1/public/v1', 'http://127.9.8.7:1/public/v1', 'http://[::1]:1/public/v1', 'http://localhost:1/public/v1', 'https://api.example.com/public/v1'])('accepts %s', (baseUrl) => {
    expect(() => clientFor(baseUrl, [])).not.toThrow();
  });
});
