import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../src/api/error-codes.js';
import type { Media } from '../../src/api/types.js';
import type { ApiClient } from './client.js';
import { expectError } from './client.js';
import { uploadImage } from './flows.js';
import { useConformance } from './harness.js';
import { PNG_1X1, mp4Bytes } from './media-bytes.js';

/**
 * Uploads: the single presigned PUT (documented choice), and every operation of the spec's
 * multipart endpoint on a real multipart video (just over the 32 MiB threshold).
 */
const emulator = useConformance();
const BIG_VIDEO_BYTES = 32 * 1024 * 1024 + 1;

async function startUpload(api: ApiClient, body: Record<string, unknown>) {
  const reply = await api.post('/media/uploads', body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.data as { media: Media; upload: { url?: string; headers?: Record<string, string>; multipart?: { partSizeBytes: number; partCount: number } } };
}

const multipart = (api: ApiClient, id: string, body: Record<string, unknown>) => api.post('/media/{id}/multipart', body, { params: { id } });
const complete = (api: ApiClient, id: string) => api.post('/media/{id}/complete', undefined, { params: { id } });

describe('single upload (POST /media/uploads, PUT, POST /media/{id}/complete)', () => {
  it('stores and validates an image, which is then readable at its url', async () => {
    const media = await uploadImage(emulator());
    expect(media).toMatchObject({ kind: 'image', contentType: 'image/png', sourceAvailable: true, width: 1, height: 1 });
    const read = await emulator().storageGet(media.url);
    expect(read.status).toBe(200);
    expect(Buffer.from(read.body as string, 'latin1').length).toBeGreaterThan(0);
  });

  it('refuses completion before the bytes are stored, and bytes that are not what was declared', async () => {
    const api = emulator().api();
    const early = await startUpload(api, { kind: 'image', contentType: 'image/png', sizeBytes: PNG_1X1.length, fileName: 'a.png' });
    expectError(await complete(api, early.media.id), 409, ErrorCodes.uploadIncomplete);

    const text = Buffer.from('this is not a picture at all');
    const wrongType = await startUpload(api, { kind: 'image', contentType: 'image/png', sizeBytes: text.length, fileName: 'b.png' });
    expect((await emulator().storagePut(wrongType.upload.url!, text, wrongType.upload.headers)).status).toBe(200);
    expectError(await complete(api, wrongType.media.id), 422, ErrorCodes.mediaInvalid);

    const shortBy = await startUpload(api, { kind: 'image', contentType: 'image/png', sizeBytes: PNG_1X1.length + 10, fileName: 'c.png' });
    expect((await emulator().storagePut(shortBy.upload.url!, PNG_1X1, shortBy.upload.headers)).status).toBe(200);
    expectError(await complete(api, shortBy.media.id), 422, ErrorCodes.mediaInvalid);
  });

  it('storage refuses more bytes than the upload declared (413)', async () => {
    const ticket = await startUpload(emulator().api(), { kind: 'image', contentType: 'image/png', sizeBytes: 10, fileName: 'tiny.png' });
    expectError(await emulator().storagePut(ticket.upload.url!, PNG_1X1, ticket.upload.headers), 413, ErrorCodes.payloadTooLarge);
  });

  it('storage needs a valid, unexpired signature and no API key', async () => {
    const api = emulator().api();
    const ticket = await startUpload(api, { kind: 'image', contentType: 'image/png', sizeBytes: PNG_1X1.length, fileName: 'd.png' });
    const url = new URL(ticket.upload.url!);
    url.searchParams.set('sig', 'forged');
    expectError(await emulator().storagePut(url.toString(), PNG_1X1), 403, ErrorCodes.signatureInvalid);
    await emulator().control.advanceClock(16 * 60);
    expectError(await emulator().storagePut(ticket.upload.url!, PNG_1X1), 403, ErrorCodes.urlExpired);
  });

  it('videos strictly larger than 32 MiB use multipart; 32 MiB exactly is a single PUT', async () => {
    const api = emulator().api();
    const atThreshold = await startUpload(api, { kind: 'video', contentType: 'video/mp4', sizeBytes: BIG_VIDEO_BYTES - 1, fileName: 'f.mp4' });
    expect(atThreshold.upload.url).toEqual(expect.any(String));
    expect(atThreshold.upload.multipart).toBeUndefined();
    const over = await startUpload(api, { kind: 'video', contentType: 'video/mp4', sizeBytes: BIG_VIDEO_BYTES, fileName: 'g.mp4' });
    expect(over.upload.url).toBeUndefined();
    expect(over.upload.multipart?.partCount).toBeGreaterThan(1);
    expectError(await emulator().storageGet(over.media.url), 404);
  });

  it('honours an Idempotency-Key like POST /posts (documented choice)', async () => {
    const api = emulator().api();
    const body = { kind: 'image', contentType: 'image/png', sizeBytes: PNG_1X1.length, fileName: 'once.png' };
    const headers = { 'idempotency-key': `upload-${process.pid}-${Date.now()}` };
    const first = await api.post('/media/uploads', body, { headers });
    const again = await api.post('/media/uploads', body, { headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.data.media.id).toBe(first.body.data.media.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectError(await api.post('/media/uploads', { ...body, fileName: 'other.png' }, { headers }), 422, ErrorCodes.idempotencyKeyReused);
  });

  it('refuses unknown fields and contradictory declarations in the upload body', async () => {
    const api = emulator().api();
    const extra = await api.post('/media/uploads', { kind: 'image', contentType: 'image/png', sizeBytes: 10, fileName: 'e.png', color: 'red' });
    expectError(extra, 400, ErrorCodes.validationFailed);
    const mismatch = await api.post('/media/uploads', { kind: 'image', contentType: 'video/mp4', sizeBytes: 0, fileName: '' });
    expect(expectError(mismatch, 400, ErrorCodes.validationFailed).length).toBeGreaterThanOrEqual(3);
  });
});

describe('POST /media/{id}/multipart', () => {
  it('sign, PUT, list, complete, list again, then media-complete: a video with a poster', async () => {
    const api = emulator().api();
    const bytes = mp4Bytes(BIG_VIDEO_BYTES, 12);
    const { media, upload } = await startUpload(api, { kind: 'video', contentType: 'video/mp4', sizeBytes: bytes.length, fileName: 'launch.mp4' });
    expect(upload.url).toBeUndefined();
    const { partSizeBytes, partCount } = upload.multipart!;
    expect(partCount).toBe(Math.ceil(bytes.length / partSizeBytes));
    expect(partCount).toBeLessThanOrEqual(128);

    expect((await multipart(api, media.id, { operation: 'list' })).body.data).toEqual({ parts: [] });
    const etags: string[] = [];
    for (let n = 1; n <= partCount; n += 1) {
      const signed = await multipart(api, media.id, { operation: 'sign', partNumber: n });
      expect(Object.keys(signed.body.data)).toEqual(['url']);
      const put = await emulator().storagePut(signed.body.data.url, bytes.subarray((n - 1) * partSizeBytes, n * partSizeBytes), upload.headers);
      expect(put.status).toBe(200);
      etags.push(put.headers.get('etag') ?? '');
      if (n === 1) expectError(await multipart(api, media.id, { operation: 'complete' }), 409, ErrorCodes.uploadIncomplete);
    }
    const listed = await multipart(api, media.id, { operation: 'list' });
    expect(listed.body.data.parts.map((part: { partNumber: number }) => part.partNumber)).toEqual(etags.map((_, i) => i + 1));
    expect(listed.body.data.parts.map((part: { etag: string }) => part.etag)).toEqual(etags);
    expect(listed.body.data.parts.reduce((sum: number, part: { size: number }) => sum + part.size, 0)).toBe(bytes.length);

    expect((await multipart(api, media.id, { operation: 'complete' })).body.data).toEqual({ completed: true });
    const after = await multipart(api, media.id, { operation: 'list' });
    expect(after.status).toBe(200);
    expect(after.body.data.completed === true || Array.isArray(after.body.data.parts)).toBe(true);

    const done = await complete(api, media.id);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toMatchObject({ id: media.id, kind: 'video', sourceAvailable: true, durationSeconds: 12, width: 1280, height: 720 });
    const poster = await emulator().storageGet(done.body.data.posterUrl);
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toMatch(/^image\//);
  });

  it('abort answers aborted: true and closes the upload', async () => {
    const api = emulator().api();
    const { media } = await startUpload(api, { kind: 'video', contentType: 'video/mp4', sizeBytes: BIG_VIDEO_BYTES, fileName: 'dropped.mp4' });
    const signed = await multipart(api, media.id, { operation: 'sign', partNumber: 1 });
    expect((await multipart(api, media.id, { operation: 'abort' })).body.data).toEqual({ aborted: true });
    expect(await emulator().storagePut(signed.body.data.url, mp4Bytes(1024)).then((reply) => reply.status)).toBeGreaterThanOrEqual(400);
    expectError(await multipart(api, media.id, { operation: 'sign', partNumber: 1 }), 409);
    expectError(await complete(api, media.id), 409);
  });

  it('the body allows no other properties and needs a known operation (partNumber for sign)', async () => {
    const api = emulator().api();
    const { media } = await startUpload(api, { kind: 'video', contentType: 'video/mp4', sizeBytes: BIG_VIDEO_BYTES, fileName: 'rules.mp4' });
    for (const body of [{ operation: 'list', extra: true }, {}, { operation: 'explode' }, { operation: 'sign' }, { operation: 'sign', partNumber: '1' }]) {
      expectError(await multipart(api, media.id, body), 400, ErrorCodes.validationFailed);
    }
    expectError(await api.request('POST', '/media/{id}/multipart', { params: { id: media.id }, raw: '{"operation":' }), 400, ErrorCodes.invalidJson);
    expectError(await multipart(api, '00000000-0000-4000-8000-000000000000', { operation: 'list' }), 404);
  });
});
