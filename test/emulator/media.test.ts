import { describe, expect, it } from 'vitest';
import { multipartPlan } from '../../src/emulator/endpoints/media.js';
import { useEmulator } from '../helpers/emulator.js';
import { mp4Bytes, pngBytes, put } from './support.js';

const emulator = useEmulator();
const MiB = 1024 * 1024;
const api = (method: string, path: string, body?: unknown) => emulator().api(method, path, { body });
const ticketFor = (body: object) => api('POST', '/media/uploads', body);
const multipart = (id: string, body: unknown) => api('POST', `/media/${id}/multipart`, body);

describe('single-PUT uploads', () => {
  it('replays an upload start sent again with its Idempotency-Key, so a lost answer leaves no second media', async () => {
    const body = { kind: 'image', contentType: 'image/png', sizeBytes: 100, fileName: 'retry.png' };
    const send = (payload: object) => emulator().api('POST', '/media/uploads', { body: payload, headers: { 'Idempotency-Key': 'upload-retry-1' } });
    const first = await send(body);
    const again = await send(body);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    const other = await send({ ...body, fileName: 'other.png' });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('idempotency_key_reused');
  });

  it('uploads an image: ticket, presigned PUT without a key, complete with dimensions, public read', async () => {
    const bytes = pngBytes(640, 480);
    const ticket = await ticketFor({ kind: 'image', contentType: 'image/png', sizeBytes: bytes.length, fileName: 'My photo.png' });
    expect(ticket.status).toBe(201);
    const { media, upload } = ticket.body.data;
    expect(media).toEqual({ id: expect.any(String), kind: 'image', url: expect.stringContaining('/_storage/media/'), sourceAvailable: false, contentType: 'image/png' });
    expect(upload).toEqual({ method: 'PUT', url: expect.stringMatching(/\/_storage\/media\/.+\?expires=\d+&sig=/), headers: { 'Content-Type': 'image/png' }, expiresAt: expect.any(String) });
    expect(upload.url.startsWith(emulator().origin)).toBe(true);

    const early = await api('POST', `/media/${media.id}/complete`);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('upload_incomplete');

    const stored = await put(upload.url, bytes);
    expect(stored.status).toBe(200);
    expect(stored.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    const completed = await api('POST', `/media/${media.id}/complete`);
    expect(completed.status).toBe(200);
    expect(completed.body.data).toEqual({ ...media, sourceAvailable: true, width: 640, height: 480 });
    const again = await api('POST', `/media/${media.id}/complete`, {});
    expect(again.body.data).toEqual(completed.body.data);

    const read = await fetch(media.url);
    expect(read.status).toBe(200);
    expect(Buffer.from(await read.arrayBuffer()).equals(bytes)).toBe(true);
    const log = await emulator().requestLog();
    const storageEntries = log.filter((entry) => entry.path.startsWith('/_storage/'));
    expect(storageEntries.map((e) => [e.method, e.status])).toEqual([['PUT', 200], ['GET', 200]]);
    expect(JSON.stringify(log)).not.toContain('sig=');
  });

  it('reads a video: duration and size from the MP4 boxes (moov at the end), and a poster', async () => {
    const bytes = mp4Bytes({ durationSeconds: 12.5, width: 1080, height: 1920, sizeBytes: 20_000, moovAtEnd: true });
    const ticket = await ticketFor({ kind: 'video', contentType: 'video/mp4', sizeBytes: bytes.length, fileName: 'clip.mp4' });
    expect(ticket.body.data.upload.multipart).toBeUndefined();
    await put(ticket.body.data.upload.url, bytes);
    const completed = await api('POST', `/media/${ticket.body.data.media.id}/complete`);
    expect(completed.body.data).toMatchObject({ kind: 'video', sourceAvailable: true, durationSeconds: 12.5, width: 1080, height: 1920, posterUrl: expect.stringContaining('/_storage/posters/') });
    const poster = await fetch(completed.body.data.posterUrl);
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toBe('image/png');
  });

  it('answers 422 media_invalid for a wrong size or a wrong type', async () => {
    const png = pngBytes(2, 2);
    const short = await ticketFor({ kind: 'image', contentType: 'image/png', sizeBytes: png.length + 100, fileName: 'a.png' });
    await put(short.body.data.upload.url, png);
    const sized = await api('POST', `/media/${short.body.data.media.id}/complete`);
    expect(sized.status).toBe(422);
    expect(sized.body.error).toEqual({ code: 'media_invalid', message: `stored object is ${png.length} bytes but sizeBytes was declared as ${png.length + 100}` });

    const lying = await ticketFor({ kind: 'image', contentType: 'image/jpeg', sizeBytes: png.length, fileName: 'a.jpg' });
    await put(lying.body.data.upload.url, png);
    const typed = await api('POST', `/media/${lying.body.data.media.id}/complete`);
    expect(typed.status).toBe(422);
    expect(typed.body.error.message).toBe('the stored bytes are image/png but image/jpeg was declared');

    const junk = await ticketFor({ kind: 'video', contentType: 'video/mp4', sizeBytes: 64, fileName: 'a.mp4' });
    await put(junk.body.data.upload.url, Buffer.alloc(64, 7));
    expect((await api('POST', `/media/${junk.body.data.media.id}/complete`)).body.error.code).toBe('media_invalid');
  });

  it('refuses a body larger than declared with 413', async () => {
    const ticket = await ticketFor({ kind: 'image', contentType: 'image/png', sizeBytes: 10, fileName: 'a.png' });
    const response = await put(ticket.body.data.upload.url, pngBytes(100, 100));
    expect(response.status).toBe(413);
  });

  it('validates the upload body, listing every problem', async () => {
    const bad = await ticketFor({ kind: 'image', contentType: 'video/mp4', sizeBytes: 21 * MiB, fileName: 'a/b.png', extra: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toEqual([
      'extra is not a known field (allowed: kind, contentType, sizeBytes, fileName)',
      'contentType must be one of image/jpeg, image/png, image/webp, image/gif for image uploads',
      `sizeBytes must be an integer from 1 to ${20 * MiB} for image uploads`,
      'fileName must be 1 to 255 characters, without slashes or control characters',
    ]);
    expect((await ticketFor({ kind: 'audio', contentType: 'audio/mp3', sizeBytes: 1, fileName: 'a' })).body.error.message).toEqual(['kind must be image or video']);
  });
});

describe('presigned URLs', () => {
  it('expire after 15 minutes of emulator time', async () => {
    const ticket = await ticketFor({ kind: 'image', contentType: 'image/png', sizeBytes: pngBytes(1, 1).length, fileName: 'a.png' });
    expect(Date.parse(ticket.body.data.upload.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    await emulator().advanceClock(16 * 60);
    const late = await put(ticket.body.data.upload.url, pngBytes(1, 1));
    expect(late.status).toBe(403);
    expect(((await late.json()) as any).error.code).toBe('url_expired');
  });

  it('are bound to one object and cannot be tampered with', async () => {
    const sizeBytes = pngBytes(1, 1).length;
    const a = await ticketFor({ kind: 'image', contentType: 'image/png', sizeBytes, fileName: 'a.png' });
    const b = await ticketFor({ kind: 'image', contentType: 'image/png', sizeBytes, fileName: 'b.png' });
    const urlA = new URL(a.body.data.upload.url);
    const urlB = new URL(b.body.data.upload.url);
    const crossed = await put(`${urlB.origin}${urlB.pathname}${urlA.search}`, pngBytes(1, 1));
    expect(crossed.status).toBe(403);
    expect(((await crossed.json()) as any).error.code).toBe('signature_invalid');
    const later = new URL(urlA);
    later.searchParams.set('expires', String(Number(urlA.searchParams.get('expires')) + 3600));
    expect((await put(later.toString(), pngBytes(1, 1))).status).toBe(403);
    const unsigned = await put(`${urlA.origin}${urlA.pathname}`, pngBytes(1, 1));
    expect(unsigned.status).toBe(403);
    expect((await put(urlA.toString(), pngBytes(1, 1))).status).toBe(200);
    const getWithPutSignature = await fetch(urlB.toString());
    expect(getWithPutSignature.status).toBe(404);
  });
});

describe('multipart uploads', () => {
  it('plans parts of at least 5 MiB and at most 128 parts', () => {
    expect(multipartPlan(32 * MiB + 1)).toEqual({ partSizeBytes: 5 * MiB, partCount: 7 });
    expect(multipartPlan(2 * 1024 * MiB)).toEqual({ partSizeBytes: 16 * MiB, partCount: 128 });
    expect(multipartPlan(2 * 1024 * MiB - 1).partCount).toBeLessThanOrEqual(128);
  });

  it('signs, lists, completes (in part order) and then validates the assembled file', async () => {
    const bytes = mp4Bytes({ durationSeconds: 95.25, sizeBytes: 33 * MiB + 123 });
    const ticket = await ticketFor({ kind: 'video', contentType: 'video/mp4', sizeBytes: bytes.length, fileName: 'long.mp4' });
    expect(ticket.status).toBe(201);
    const { media, upload } = ticket.body.data;
    expect(upload.url).toBeUndefined();
    expect(upload.multipart).toEqual({ partSizeBytes: 5 * MiB, partCount: 7 });
    const { partSizeBytes, partCount } = upload.multipart;

    const rules = await Promise.all([
      multipart(media.id, { operation: 'sign', partNumber: 1, extra: true }),
      multipart(media.id, { operation: 'sign', partNumber: 0 }),
      multipart(media.id, { operation: 'sign', partNumber: 129 }),
      multipart(media.id, { operation: 'sign', partNumber: 8 }),
      multipart(media.id, { operation: 'sign' }),
      multipart(media.id, { operation: 'upload' }),
      multipart(media.id, {}),
    ]);
    expect(rules.map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 400, 400]);
    expect(rules.map((r) => r.body.error.message)).toEqual([
      ['extra is not a known field (allowed: operation, partNumber)'],
      ['partNumber must be an integer from 1 to 128'],
      ['partNumber must be an integer from 1 to 128'],
      ["partNumber must be within the upload's part count (7)"],
      ['partNumber is required when operation is sign'],
      ['operation is required and must be one of list, sign, complete, abort'],
      ['operation is required and must be one of list, sign, complete, abort'],
    ]);

    expect((await multipart(media.id, { operation: 'list' })).body.data).toEqual({ parts: [] });
    const part = (n: number) => bytes.subarray((n - 1) * partSizeBytes, Math.min(n * partSizeBytes, bytes.length));
    const signed = await multipart(media.id, { operation: 'sign', partNumber: 3 });
    expect(signed.body.data).toEqual({ url: expect.stringContaining('/_storage/uploads/') });
    const stored = await put(signed.body.data.url, part(3));
    expect(stored.status).toBe(200);
    const etag3 = stored.headers.get('etag');
    expect((await multipart(media.id, { operation: 'list' })).body.data).toEqual({ parts: [{ partNumber: 3, etag: etag3, size: partSizeBytes }] });

    const early = await multipart(media.id, { operation: 'complete' });
    expect(early.status).toBe(409);
    expect(early.body.error).toEqual({ code: 'upload_incomplete', message: 'parts not uploaded yet: 1, 2, 4, 5, 6, 7 (of 7)' });
    expect((await api('POST', `/media/${media.id}/complete`)).body.error.code).toBe('upload_incomplete');

    const others = [7, 1, 5, 2, 6, 4];
    await Promise.all(
      others.map(async (n) => {
        const url = (await multipart(media.id, { operation: 'sign', partNumber: n })).body.data.url;
        expect((await put(url, part(n))).status).toBe(200);
      }),
    );
    const listed = (await multipart(media.id, { operation: 'list' })).body.data.parts;
    expect(listed.map((p: any) => p.partNumber)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(listed[6].size).toBe(bytes.length - 6 * partSizeBytes);

    expect((await multipart(media.id, { operation: 'complete' })).body.data).toEqual({ completed: true });
    expect((await multipart(media.id, { operation: 'complete' })).body.data).toEqual({ completed: true });
    expect((await multipart(media.id, { operation: 'list' })).body.data).toEqual({ completed: true });
    const closed = await multipart(media.id, { operation: 'sign', partNumber: 1 });
    expect(closed.status).toBe(409);
    expect(closed.body.error.code).toBe('upload_closed');
    expect((await multipart(media.id, { operation: 'abort' })).status).toBe(409);

    const completed = await api('POST', `/media/${media.id}/complete`);
    expect(completed.status).toBe(200);
    expect(completed.body.data).toMatchObject({ sourceAvailable: true, durationSeconds: 95.25 });
    const read = await fetch(media.url);
    expect(Buffer.from(await read.arrayBuffer()).equals(bytes)).toBe(true);
    expect(partCount).toBe(7);
  });

  it('aborts: deletes parts, refuses further parts, stays aborted', async () => {
    const ticket = await ticketFor({ kind: 'video', contentType: 'video/mp4', sizeBytes: 40 * MiB, fileName: 'x.mp4' });
    const id = ticket.body.data.media.id;
    const url = (await multipart(id, { operation: 'sign', partNumber: 1 })).body.data.url;
    expect((await multipart(id, { operation: 'abort' })).body.data).toEqual({ aborted: true });
    expect((await multipart(id, { operation: 'abort' })).body.data).toEqual({ aborted: true });
    const listed = await multipart(id, { operation: 'list' });
    expect(listed.status).toBe(409);
    expect(listed.body.error.code).toBe('upload_closed');
    const late = await put(url, Buffer.alloc(1024));
    expect(late.status).toBe(409);
    expect((await api('POST', `/media/${id}/complete`)).body.error.code).toBe('upload_closed');
  });

  it('refuses multipart operations on a single-PUT upload and on unknown media', async () => {
    const ticket = await ticketFor({ kind: 'image', contentType: 'image/png', sizeBytes: 64, fileName: 'a.png' });
    const single = await multipart(ticket.body.data.media.id, { operation: 'list' });
    expect(single.status).toBe(400);
    expect((await multipart('00000000-0000-4000-8000-000000000000', { operation: 'list' })).status).toBe(404);
  });
});
