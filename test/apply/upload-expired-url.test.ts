import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ApplyEvent } from '../../src/apply/events.js';
import { uploadMedia } from '../../src/apply/upload-media.js';
import { useEmulator } from '../helpers/emulator.js';
import { VariantProxy } from '../helpers/variant-proxy.js';
import { applyWorld, pngMedia } from './apply-world.js';

const emulator = useEmulator();

/** A storage that answers every PUT with `status`, as storage refuses a presigned URL past its expiry (403). */
async function refusingStorage(status: number): Promise<{ origin: string; puts: string[] }> {
  const puts: string[] = [];
  const storage: Server = createServer((req, res) => {
    req.resume();
    puts.push(`${req.method} ${req.url}`);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'url_expired', message: 'this presigned URL has expired' }, meta: { requestId: 'storage' } }));
  });
  await new Promise<void>((resolve) => storage.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => {
    storage.closeAllConnections();
    storage.close(() => resolve());
  }));
  return { origin: `http://127.0.0.1:${(storage.address() as AddressInfo).port}`, puts };
}

/** Uploads one PNG through a service whose first `expired` upload tickets point at a storage answering `status`. */
async function uploadThrough(status: number, expired: number) {
  const api = emulator();
  const storage = await refusingStorage(status);
  let tickets = 0;
  const proxy = await VariantProxy.start(api.baseUrl, {
    name: 'upload URLs refused by storage',
    rewrite: (exchange, data) => {
      if (exchange.method !== 'POST' || exchange.path !== '/media/uploads') return data;
      tickets += 1;
      const upload = (data as { upload: { url?: string } }).upload;
      if (tickets <= expired && upload.url !== undefined) upload.url = `${storage.origin}${new URL(upload.url).pathname}${new URL(upload.url).search}`;
      return data;
    },
  });
  onTestFinished(() => proxy.close());
  const world = await applyWorld(api, { baseUrl: proxy.baseUrl });
  const cover = await pngMedia(world, 'cover.png');
  const events: ApplyEvent[] = [];
  const upload = { sha256: cover.sha256, path: cover.path, sizeBytes: cover.sizeBytes, contentType: cover.contentType, kind: 'image' as const, usedBy: ['launch'] };
  const outcome = await uploadMedia([upload], { client: world.client, store: world.store, root: world.root, targetId: world.target.id, onEvent: (event) => events.push(event) });
  return { outcome, world, cover, tickets: () => tickets, puts: storage.puts, kinds: events.filter((event) => event.type !== 'upload-progress').map((event) => event.type) };
}

describe('uploadMedia: a single-upload URL refused by storage', () => {
  it('asks for a new ticket once when the URL expired (403), and uploads with it', async () => {
    const { outcome, world, cover, tickets, puts, kinds } = await uploadThrough(403, 1);
    expect(outcome.failed.size).toBe(0);
    expect([tickets(), puts.length]).toEqual([2, 1]);
    expect(kinds).toEqual(['upload-start', 'upload-done']);
    expect(world.store.section.media[cover.sha256]?.mediaId).toMatch(/.+/);
  });

  it('asks only once: a second refusal fails the upload, and nothing is recorded', async () => {
    const { outcome, world, cover, tickets, puts } = await uploadThrough(403, 2);
    expect(outcome.failed.get(cover.sha256)).toMatchObject({ status: 403 });
    expect([tickets(), puts.length]).toEqual([2, 2]);
    expect(world.store.section.media).toEqual({});
  });

  it('asks for no new ticket when storage fails otherwise: the error is the news', async () => {
    const { outcome, cover, tickets, puts } = await uploadThrough(400, 1);
    expect(outcome.failed.get(cover.sha256)).toMatchObject({ status: 400 });
    expect([tickets(), puts.length]).toEqual([1, 1]);
  });
});
