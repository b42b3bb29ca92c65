import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { applied, inProcess, pending } from '../helpers/in-process.js';
import { VariantProxy } from '../helpers/variant-proxy.js';
import { demoProject, post } from './project.js';

const emulator = useEmulator();
let proxy: VariantProxy | undefined;
let storage: Server | undefined;
afterEach(async () => {
  await proxy?.close();
  storage?.closeAllConnections();
  await new Promise((resolve) => (storage ? storage.close(resolve) : resolve(undefined)));
  proxy = undefined;
  storage = undefined;
});

/** A storage that refuses every PUT as storage refuses a presigned URL past its expiry. */
async function expiredStorage(): Promise<{ origin: string; puts: string[] }> {
  const puts: string[] = [];
  storage = createServer((req, res) => {
    req.resume();
    puts.push(`${req.method} ${req.url}`);
    res.writeHead(403, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'url_expired', message: 'this presigned URL has expired; request a new one' }, meta: { requestId: 'storage' } }));
  });
  await new Promise<void>((resolve) => storage!.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(storage.address() as AddressInfo).port}`, puts };
}

describe('a single-upload URL that expired before its PUT (403 from storage)', () => {
  it('asks for a new upload ticket once and uploads with it: the post is created with its media', async () => {
    const api = emulator();
    await api.reset();
    const expired = await expiredStorage();
    let tickets = 0;
    proxy = await VariantProxy.start(api.baseUrl, {
      name: 'first upload URL expired',
      rewrite: (exchange, data) => {
        if (exchange.method !== 'POST' || exchange.path !== '/media/uploads') return data;
        tickets += 1;
        const upload = (data as { upload: { url?: string } }).upload;
        // Only the first ticket's URL is past its time: storage refuses it.
        if (tickets === 1 && upload.url !== undefined) upload.url = `${expired.origin}${new URL(upload.url).pathname}${new URL(upload.url).search}`;
        return data;
      },
    });
    const dir = await demoProject({ 'launch.md': post({ body: 'We launch on Monday.', media: '[media/cover.png]' }) });
    const run = inProcess(dir, proxy.baseUrl);

    expect(applied(await run.apply())).toEqual({ counts: { create: 1 }, failed: [], blocked: 0 });
    expect([tickets, expired.puts.length]).toEqual([2, 1]);
    const [created] = (await api.api('GET', '/posts')).body.data.items as { media: unknown[] }[];
    expect(created!.media).toHaveLength(1);
    expect(pending(await run.plan())).toEqual([]);
  });

  it('asks only once: a second refusal fails the upload, and the post is not created without its media', async () => {
    const api = emulator();
    await api.reset();
    const expired = await expiredStorage();
    proxy = await VariantProxy.start(api.baseUrl, {
      name: 'every upload URL expired',
      rewrite: (exchange, data) => {
        const upload = exchange.method === 'POST' && exchange.path === '/media/uploads' ? (data as { upload: { url?: string } }).upload : undefined;
        if (upload?.url !== undefined) upload.url = `${expired.origin}${new URL(upload.url).pathname}${new URL(upload.url).search}`;
        return data;
      },
    });
    const dir = await demoProject({ 'launch.md': post({ body: 'We launch on Monday.', media: '[media/cover.png]' }) });
    const outcome = applied(await inProcess(dir, proxy.baseUrl).apply());
    expect(outcome.counts).toEqual({});
    expect(outcome.failed).toEqual([expect.stringMatching(/^launch: /)]);
    expect(expired.puts).toHaveLength(2);
    expect((await api.api('GET', '/posts')).body.data.items).toEqual([]);
  });
});
