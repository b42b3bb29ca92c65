import { createHash, randomBytes } from 'node:crypto';
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { readState } from '../../src/state/state-file.js';
import type { ApplyEvent } from '../../src/apply/events.js';
import { uploadMedia } from '../../src/apply/upload-media.js';
import { writeMp4File } from '../helpers/media-generators/index.js';
import type { MediaUpload } from '../../src/plan/types.js';
import { useEmulator } from '../helpers/emulator.js';
import { RefusingProxy, type RefuseRule } from '../helpers/refusing-proxy.js';
import { testdir } from '../helpers/testdir.js';
import { applyWorld, pngMedia, writes, type ApplyWorld } from './apply-world.js';
import { testSeal } from '../helpers/seal.js';

const emulator = useEmulator();
const MiB = 1024 * 1024;

function upload(media: { sha256: string; path: string; sizeBytes: number; contentType: string; kind: 'image' | 'video' }): MediaUpload {
  return { sha256: media.sha256, path: media.path, sizeBytes: media.sizeBytes, contentType: media.contentType, kind: media.kind, usedBy: ['post'] };
}

async function run(world: ApplyWorld, uploads: MediaUpload[]) {
  const events: ApplyEvent[] = [];
  const outcome = await uploadMedia(uploads, { client: world.client, store: world.store, root: world.root, targetId: world.target.id, onEvent: (event) => events.push(event) });
  return { ...outcome, events, kinds: events.filter((event) => event.type !== 'upload-progress').map((event) => `${event.type}${'resumed' in event ? `(resumed ${event.resumed})` : ''}`) };
}

/** A video over the multipart threshold (7 parts of 5 MiB), shared by the multipart tests. */
let video: MediaUpload;
let videoRoot: string;
beforeAll(async () => {
  videoRoot = await testdir();
  const sizeBytes = 33 * MiB + 123;
  const path = join(videoRoot, 'big.mp4');
  await writeMp4File(path, { durationSeconds: 10, videoCodec: 'avc1', audioCodec: 'mp4a', width: 320, height: 240, sizeBytes });
  const handle = await open(path, 'r+');
  for (let offset = 64 * 1024; offset < sizeBytes - 8192; offset += 2 * MiB) await handle.write(randomBytes(4096), 0, 4096, offset);
  await handle.close();
  const sha256 = createHash('sha256').update(await readFile(path)).digest('hex');
  video = upload({ sha256, path: 'big.mp4', sizeBytes, contentType: 'video/mp4', kind: 'video' });
}, 60_000);

/** A world whose client goes through a proxy that refuses what `rule` picks. */
async function refusingWorld(rule: RefuseRule, refusal: { status: number; code: string }) {
  const api = emulator();
  const proxy = await RefusingProxy.start(api.baseUrl);
  onTestFinished(() => proxy.close());
  proxy.refuse(rule, refusal);
  return { proxy, world: await applyWorld(api, { baseUrl: proxy.baseUrl, root: videoRoot }) };
}

const multipartCall = (operation: string): RefuseRule => ({ method, path, body }) => method === 'POST' && path.endsWith('/multipart') && body.includes(`"operation":"${operation}"`);

describe('uploadMedia: single files', () => {
  it('uploads a file, records its media id, and reports start, progress and done', async () => {
    const world = await applyWorld(emulator());
    const cover = upload(await pngMedia(world, 'cover.png'));
    const result = await run(world, [cover]);
    expect(result).toMatchObject({ uploadedFiles: 1, uploadedBytes: cover.sizeBytes });
    expect(result.failed.size).toBe(0);
    const record = world.store.section.media[cover.sha256]!;
    expect(record).toMatchObject({ sizeBytes: cover.sizeBytes, contentType: 'image/png' });
    expect(Number.isNaN(Date.parse(record.uploadedAt))).toBe(false);
    expect(result.kinds).toEqual(['upload-start(resumed false)', 'upload-done']);
    expect(result.events.at(-1)).toEqual({ type: 'upload-done', upload: cover, mediaId: record.mediaId, sentBytes: cover.sizeBytes });
    expect(result.events.filter((event) => event.type === 'upload-progress').at(-1)).toEqual({ type: 'upload-progress', upload: cover, sentBytes: cover.sizeBytes });
    expect(world.store.section.uploads).toEqual({});
  });

  it('skips a file the state already has a media id for', async () => {
    const world = await applyWorld(emulator());
    const cover = upload(await pngMedia(world, 'cover.png'));
    await run(world, [cover]);
    await world.api.clearLog();
    expect(await run(world, [cover])).toMatchObject({ uploadedFiles: 0, uploadedBytes: 0, events: [] });
    expect(await writes(world)).toEqual([]);
  });

  it('reports a file that cannot be uploaded, and uploads the others', async () => {
    const world = await applyWorld(emulator());
    const [gone, kept] = [upload(await pngMedia(world, 'gone.png', 1)), upload(await pngMedia(world, 'kept.png', 2))];
    await rm(join(world.root, 'gone.png'));
    const result = await run(world, [gone, kept]);
    expect([...result.failed.keys()]).toEqual([gone.sha256]);
    expect(result.failed.get(gone.sha256)).toBeInstanceOf(Error);
    expect(result.events).toContainEqual({ type: 'upload-failed', upload: gone, error: result.failed.get(gone.sha256) });
    expect(result).toMatchObject({ uploadedFiles: 1, uploadedBytes: kept.sizeBytes });
    expect(Object.keys(world.store.section.media)).toEqual([kept.sha256]);
  });
});

describe('uploadMedia: multipart', () => {
  it('records the multipart upload before sending parts, so a later run can resume it; forgets it once done', async () => {
    const world = await applyWorld(emulator(), { root: videoRoot });
    const recordedDuringUpload: unknown[] = [];
    const events: ApplyEvent[] = [];
    const outcome = await uploadMedia([video], {
      client: world.client, store: world.store, root: world.root, targetId: world.target.id,
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'upload-progress' && recordedDuringUpload.length === 0) recordedDuringUpload.push(world.store.section.uploads[video.sha256]);
      },
    });
    expect(outcome).toMatchObject({ uploadedFiles: 1, uploadedBytes: video.sizeBytes });
    const mediaId = world.store.section.media[video.sha256]!.mediaId;
    expect(recordedDuringUpload[0]).toMatchObject({ mediaId, partSizeBytes: 5 * MiB, partCount: 7 });
    expect((await readState(world.statePath)).targets['local:demo']!.uploads).toEqual({});
    expect(events.at(-1)).toEqual({ type: 'upload-done', upload: video, mediaId, sentBytes: video.sizeBytes });
  }, 60_000);

  it('resumes an interrupted upload, sending only the missing parts', async () => {
    const world = await applyWorld(emulator(), { root: videoRoot });
    const ticket = await world.client.createUpload({ kind: 'video', contentType: 'video/mp4', sizeBytes: video.sizeBytes, fileName: 'big.mp4' });
    const record = { mediaId: ticket.media.id, ...ticket.upload.multipart!, startedAt: '2026-05-01T00:00:00.000Z' };
    // An earlier run stored parts 1 to 5, then stopped.
    const bytes = await readFile(join(videoRoot, 'big.mp4'));
    for (let part = 1; part <= 5; part += 1) {
      const { url } = (await world.client.multipart(record.mediaId, 'sign', part)) as { url: string };
      await fetch(url, { method: 'PUT', body: bytes.subarray((part - 1) * record.partSizeBytes, part * record.partSizeBytes) });
    }
    await world.store.recordUpload(video.sha256, record);
    const result = await run(world, [video]);
    expect(result.kinds).toEqual(['upload-start(resumed true)', 'upload-done']);
    // Progress counts the parts already stored, so it ends at the file's size.
    expect(result.events.filter((event) => event.type === 'upload-progress').at(-1)).toEqual({ type: 'upload-progress', upload: video, sentBytes: video.sizeBytes });
    // Each part sent counts whole (the last one is shorter): an estimate, never over the file's size.
    expect(result.uploadedBytes).toBe(2 * record.partSizeBytes);
    expect(result.events.at(-1)).toMatchObject({ sentBytes: 2 * record.partSizeBytes });
    expect(world.store.section.media[video.sha256]?.mediaId).toBe(record.mediaId);
    expect(world.store.section.uploads).toEqual({});
  }, 60_000);

  it('counts a resumed upload that sends every part again as its size, never more', async () => {
    const world = await applyWorld(emulator(), { root: videoRoot });
    const ticket = await world.client.createUpload({ kind: 'video', contentType: 'video/mp4', sizeBytes: video.sizeBytes, fileName: 'big.mp4' });
    await world.store.recordUpload(video.sha256, { mediaId: ticket.media.id, ...ticket.upload.multipart!, startedAt: '2026-05-01T00:00:00.000Z' });
    const result = await run(world, [video]);
    expect(result.kinds).toEqual(['upload-start(resumed true)', 'upload-done']);
    expect(result.uploadedBytes).toBe(video.sizeBytes);
  }, 60_000);

  it.each([
    ['forgot it (404)', async () => ({ mediaId: '00000000-0000-4000-8000-00000000f060', partSizeBytes: 5 * MiB, partCount: 7, startedAt: '2026-05-01T00:00:00.000Z' })],
    ['closed it (aborted)', async (world: ApplyWorld) => {
      const ticket = await world.client.createUpload({ kind: 'video', contentType: 'video/mp4', sizeBytes: video.sizeBytes, fileName: 'big.mp4' });
      await world.client.multipart(ticket.media.id, 'abort');
      return { mediaId: ticket.media.id, ...ticket.upload.multipart!, startedAt: '2026-05-01T00:00:00.000Z' };
    }],
  ])('starts again from nothing when the service %s', async (_, interrupted) => {
    const world = await applyWorld(emulator(), { root: videoRoot });
    const record = await interrupted(world);
    await world.store.recordUpload(video.sha256, record);
    const result = await run(world, [video]);
    expect(result.kinds).toEqual(['upload-start(resumed true)', 'upload-start(resumed false)', 'upload-done']);
    expect(result.failed.size).toBe(0);
    expect(world.store.section.media[video.sha256]?.mediaId).not.toBe(record.mediaId);
    expect(world.store.section.uploads).toEqual({});
  }, 60_000);

  it('keeps an interrupted upload that failed to resume for another reason', async () => {
    const { world } = await refusingWorld(multipartCall('list'), { status: 503, code: 'unavailable' });
    const record = { mediaId: 'media-1', partSizeBytes: 5 * MiB, partCount: 7, startedAt: '2026-05-01T00:00:00.000Z' };
    await world.store.recordUpload(video.sha256, record);
    const result = await run(world, [video]);
    expect(result.kinds).toEqual(['upload-start(resumed true)', 'upload-failed']);
    expect(result.failed.get(video.sha256)).toMatchObject({ status: 503 });
    expect(world.store.section.uploads[video.sha256]).toEqual(testSeal(world.target).sealed('uploads', video.sha256, record));
  });

  it('aborts and forgets a multipart upload the service refuses (4xx): it cannot be resumed', async () => {
    const { world, proxy } = await refusingWorld(multipartCall('sign'), { status: 403, code: 'forbidden' });
    const result = await run(world, [video]);
    expect(result.failed.get(video.sha256)).toMatchObject({ status: 403 });
    expect(proxy.refused.length).toBeGreaterThan(0);
    expect((await writes(world)).filter((line) => line.endsWith('/multipart'))).toHaveLength(2); // list, then abort
    expect(world.store.section.uploads).toEqual({});
    expect(world.store.section.media).toEqual({});
  }, 60_000);

  it.each([
    [500, 'internal'],
    [503, 'unavailable'],
    [429, 'rate_limited'],
  ])('keeps a multipart upload resumable after a %s', async (status, code) => {
    const { world } = await refusingWorld(multipartCall('sign'), { status, code });
    const result = await run(world, [video]);
    expect(result.failed.get(video.sha256)).toMatchObject({ status });
    const kept = world.store.section.uploads[video.sha256];
    expect(kept).toMatchObject({ partSizeBytes: 5 * MiB, partCount: 7 });
    expect((await writes(world)).filter((line) => line.endsWith('/multipart'))).toHaveLength(1); // list only: no abort
  }, 60_000);
});
