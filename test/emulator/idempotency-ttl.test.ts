import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { ACME, postBody, testFixture } from './support.js';

/** `--idempotency-ttl`: how long the emulator remembers a create's Idempotency-Key. */

const create = (emulator: TestEmulator, key: string, content: string) =>
  emulator.api('POST', '/posts', { key: 'acme-full', body: postBody(ACME.photo, { content }), headers: { 'Idempotency-Key': key } });

describe('the idempotency TTL', () => {
  it('forgets a key once the TTL of emulator time has passed, and not before', async () => {
    const emulator = await startTestEmulator({ fixture: testFixture(), idempotencyTtlSeconds: 600 });
    try {
      const first = await create(emulator, 'ttl-1', 'ttl one');
      await emulator.advanceClock(599);
      const replayed = await create(emulator, 'ttl-1', 'ttl one');
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.body.data.id).toBe(first.body.data.id);
      await emulator.advanceClock(1);
      const fresh = await create(emulator, 'ttl-1', 'ttl one');
      expect(fresh.status).toBe(201);
      expect(fresh.headers.get('idempotent-replayed')).toBeNull();
      expect(fresh.body.data.id).not.toBe(first.body.data.id);
    } finally {
      await emulator.close();
    }
  });

  it('with 0, remembers no key: the same key and payload create a second post at once', async () => {
    const emulator = await startTestEmulator({ fixture: testFixture(), idempotencyTtlSeconds: 0 });
    try {
      const first = await create(emulator, 'ttl-0', 'ttl zero');
      const second = await create(emulator, 'ttl-0', 'ttl zero');
      expect(second.status).toBe(201);
      expect(second.body.data.id).not.toBe(first.body.data.id);
    } finally {
      await emulator.close();
    }
  });

  it('refuses a TTL that is not a whole number of seconds', async () => {
    await expect(startTestEmulator({ idempotencyTtlSeconds: -1 })).rejects.toThrow('idempotencyTtlSeconds must be a whole number of 0 or more, got -1');
    await expect(startTestEmulator({ idempotencyTtlSeconds: 1.5 })).rejects.toThrow('got 1.5');
  });
});

describe('postsync serve --idempotency-ttl', () => {
  const bin = new URL('../../dist/cli/main.js', import.meta.url).pathname;

  it('serves with the TTL it is given', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--idempotency-ttl', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
      const baseUrl = line.slice('listening on '.length);
      const send = async () => {
        const response = await fetch(`${baseUrl}/posts`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${DEMO_API_KEY}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'serve-ttl' },
          body: JSON.stringify({ content: 'once', targets: [{ socialAccountId: DEMO_ACCOUNTS.photo }], mediaIds: [] }),
        });
        return ((await response.json()) as { data: { id: string } }).data.id;
      };
      expect(await send()).not.toBe(await send());
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('refuses a value that is not a whole number of seconds', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--idempotency-ttl', '1h'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('--idempotency-ttl must be a whole number of seconds (0 or more), got 1h');
  });
});
