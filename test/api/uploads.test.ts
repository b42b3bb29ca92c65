import { createHash, randomBytes } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/index.js';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { writeMp4File } from '../helpers/media-generators/index.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { sendJson, startLocalPeer, useCleanup } from './local-peer.js';

const MiB = 1024 * 1024;
const emulator = useEmulator();
const track = useCleanup();

function newClient(baseUrl = emulator().baseUrl, apiKey = DEMO_API_KEY): ApiClient {
  return track(new ApiClient({ baseUrl, apiKey }));
}

/** An MP4 over the multipart threshold whose parts differ (random bytes inside mdat). */
async function bigVideo(sizeBytes: number): Promise<string> {
  const path = join(await testdir(), 'big.mp4');
  await writeMp4File(path, { durationSeconds: 10, videoCodec: 'avc1', audioCodec: 'mp4a', width: 320, height: 240, sizeBytes });
  const handle = await open(path, 'r+');
  for (let offset = 64 * 1024; offset < sizeBytes - 8192; offset += 2 * MiB) await handle.write(randomBytes(4096), 0, 4096, offset);
  await handle.close();
  return path;
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('multipart upload', () => {
  it('resumes: parts already stored with the right size are not sent again, then complete', async () => {
    const sizeBytes = 33 * MiB + 123;
    const path = await bigVideo(sizeBytes);
    const file = await readFile(path);
    const client = newClient();
    const ticket = await client.createUpload({ kind: 'video', contentType: 'video/mp4', sizeBytes, fileName: 'big.mp4' });
    const plan = ticket.upload.multipart!;
    expect(plan.partCount).toBe(7);
    const upload = { mediaId: ticket.media.id, ...plan };
    // An earlier, interrupted run stored part 2 completely and part 3 only partly.
    for (const [partNumber, length] of [[2, plan.partSizeBytes], [3, 1000]] as const) {
      const signed = await client.multipart(upload.mediaId, 'sign', partNumber);
      const offset = (partNumber - 1) * plan.partSizeBytes;
      const put = await fetch((signed as { url: string }).url, { method: 'PUT', body: file.subarray(offset, offset + length) });
      expect(put.status).toBe(200);
    }
    await emulator().clearLog();
    const progress: number[] = [];
    const outcome = await client.uploadMultipart(upload, { path, sizeBytes }, { concurrency: 2, onProgress: (sent) => progress.push(sent) });
    expect(outcome).toMatchObject({ sentParts: 6, skippedParts: 1 });
    expect(outcome.parts.map((p) => p.partNumber)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(progress.at(-1)).toBe(sizeBytes);
    const puts = (await emulator().requestLog()).filter((e) => e.method === 'PUT').map((e) => Number(/part-(\d+)$/.exec(e.path)?.[1]));
    expect(puts.sort((a, b) => a - b)).toEqual([1, 3, 4, 5, 6, 7]);
    const media = await client.completeMedia(upload.mediaId);
    expect(media).toMatchObject({ kind: 'video', durationSeconds: 10, width: 320, height: 240 });
    const stored = Buffer.from(await (await fetch(media.url)).arrayBuffer());
    expect(sha256(stored)).toBe(sha256(file));
    expect(await client.uploadMultipart(upload, { path, sizeBytes })).toMatchObject({ sentParts: 0, skippedParts: 7 });
  });

  it('sends at most `concurrency` parts at once, each signed just before its PUT', async () => {
    const path = join(await testdir(), 'parts.bin');
    await writeMp4File(path, { durationSeconds: 1, videoCodec: 'avc1', width: 16, height: 16, sizeBytes: 6000 });
    let inFlight = 0;
    let most = 0;
    const peer = track(await startLocalPeer((req, _index, res) => {
      if (req.method === 'PUT') {
        inFlight += 1;
        most = Math.max(most, inFlight);
        setTimeout(() => {
          inFlight -= 1;
          res.writeHead(200, { etag: `"${req.path}"` });
          res.end();
        }, 30);
        return;
      }
      const { operation, partNumber } = JSON.parse(req.body) as { operation: string; partNumber?: number };
      const stored = peer.received.filter((r) => r.method === 'PUT').map((r) => ({ partNumber: partOf(r.path), etag: `"${r.path}"`, size: r.body.length }));
      const data = operation === 'sign' ? { url: `${peer.origin}/_storage/part-${partNumber}?sig=s` } : operation === 'list' ? { parts: stored } : { completed: true };
      sendJson(res, 200, { data, meta: { requestId: 'r' } });
    }));
    const client = newClient(peer.baseUrl, 'upload-test-key');
    const outcome = await client.uploadMultipart({ mediaId: 'm1', partSizeBytes: 1000, partCount: 6 }, { path, sizeBytes: 6000 }, { concurrency: 2 });
    expect(outcome).toMatchObject({ sentParts: 6, skippedParts: 0 });
    expect(most).toBe(2);
    const steps = peer.received.map((r) => (r.method === 'PUT' ? `put ${partOf(r.path)}` : operationOf(r.body)));
    expect(steps[0]).toBe('list');
    expect(steps.slice(-2)).toEqual(['list', 'complete']);
    for (let part = 1; part <= 6; part += 1) expect(steps.indexOf(`sign ${part}`)).toBeLessThan(steps.indexOf(`put ${part}`));
  });

  it('stops sending parts when its signal is aborted', async () => {
    const path = join(await testdir(), 'parts.bin');
    await writeMp4File(path, { durationSeconds: 1, videoCodec: 'avc1', width: 16, height: 16, sizeBytes: 6000 });
    const controller = new AbortController();
    const peer = track(await startLocalPeer((req, _index, res) => {
      if (req.method === 'PUT') {
        controller.abort();
        res.writeHead(200, { etag: '"e"' });
        res.end();
        return;
      }
      const { operation, partNumber } = JSON.parse(req.body) as { operation: string; partNumber?: number };
      sendJson(res, 200, { data: operation === 'sign' ? { url: `${peer.origin}/_storage/part-${partNumber}?sig=s` } : { parts: [] }, meta: { requestId: 'r' } });
    }));
    const client = newClient(peer.baseUrl, 'upload-test-key');
    const upload = client.uploadMultipart({ mediaId: 'm1', partSizeBytes: 1000, partCount: 6 }, { path, sizeBytes: 6000 }, { concurrency: 1, signal: controller.signal });
    await expect(upload).rejects.toMatchObject({ name: 'AbortError' });
    expect(peer.received.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });
});

const partOf = (path: string): number => Number(/part-(\d+)/.exec(path)?.[1]);
function operationOf(body: string): string {
  const { operation, partNumber } = JSON.parse(body) as { operation: string; partNumber?: number };
  return partNumber === undefined ? operation : `${operation} ${partNumber}`;
}
