import { ALL_PERMISSIONS } from '../../src/api/types.js';
import type { Fixture } from '../../src/emulator/index.js';
import type { TestEmulator } from '../helpers/emulator.js';

/** Account ids of the test fixture (project `acme`). */
export const ACME = {
  photo: '11111111-1111-4111-8111-000000000001',
  video: '11111111-1111-4111-8111-000000000002',
  short: '11111111-1111-4111-8111-000000000003',
  failing: '11111111-1111-4111-8111-000000000004',
  throttled: '11111111-1111-4111-8111-000000000005',
  unavailable: '11111111-1111-4111-8111-000000000006',
};
export const OTHER_ACCOUNT = '22222222-2222-4222-8222-000000000001';

/** Two projects, keys with various permissions and states, and accounts with each publish behaviour. */
export function testFixture(): Fixture {
  return {
    projects: [
      {
        id: 'acme',
        keys: [
          { token: 'acme-full', permissions: [...ALL_PERMISSIONS] },
          { token: 'acme-read', permissions: ['accounts-read', 'posts-read'] },
          { token: 'acme-write', permissions: ['posts-read', 'posts-write'] },
          { token: 'acme-publish', permissions: ['posts-read', 'posts-write', 'posts-publish'] },
          { token: 'acme-paused', permissions: [...ALL_PERMISSIONS], paused: true },
          { token: 'acme-expired', permissions: [...ALL_PERMISSIONS], expiresAt: '2020-01-01T00:00:00Z' },
          { token: 'acme-later', permissions: [...ALL_PERMISSIONS], expiresAt: '2999-01-01T00:00:00Z' },
        ],
        accounts: [
          { id: ACME.photo, platform: 'photoC', handle: '@acme.photo' },
          { id: ACME.video, platform: 'vidA', handle: '@acme.video' },
          { id: ACME.short, platform: 'shortB', handle: '@acme.short' },
          { id: ACME.failing, platform: 'photoC', handle: '@acme.failing', publishBehavior: 'fail' },
          { id: ACME.throttled, platform: 'photoC', handle: '@acme.throttled', publishBehavior: 'throttle' },
          { id: ACME.unavailable, platform: 'photoC', handle: '@acme.gone', available: false, unavailableReason: 'token revoked by the account owner' },
        ],
      },
      {
        id: 'other',
        rateLimit: { limit: 5, windowSeconds: 60 },
        keys: [
          { token: 'other-a', permissions: [...ALL_PERMISSIONS] },
          { token: 'other-b', permissions: [...ALL_PERMISSIONS] },
        ],
        accounts: [{ id: OTHER_ACCOUNT, platform: 'photoC', handle: '@other' }],
      },
    ],
  };
}

/** A PNG of the given dimensions, padded to `sizeBytes` (image-size reads only the header). */
export function pngBytes(width: number, height: number, sizeBytes = 64): Buffer {
  const buffer = Buffer.alloc(Math.max(sizeBytes, 33));
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(buffer, 0);
  buffer.writeUInt32BE(13, 8);
  buffer.write('IHDR', 12, 'latin1');
  buffer.writeUInt32BE(width, 16);
  buffer.writeUInt32BE(height, 20);
  buffer.writeUInt8(8, 24);
  buffer.writeUInt8(2, 25);
  return buffer;
}

function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(body.length + 8, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

/** The header of an MP4 (ftyp + moov with mvhd and a video tkhd); mdat follows, up to `sizeBytes`. */
export function mp4Bytes(options: { durationSeconds: number; width?: number; height?: number; sizeBytes?: number; moovAtEnd?: boolean }): Buffer {
  const ftyp = box('ftyp', Buffer.from('isom\0\0\x02\0isomiso2avc1mp41', 'latin1'));
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12);
  mvhd.writeUInt32BE(Math.round(options.durationSeconds * 1000), 16);
  const tkhd = Buffer.alloc(84);
  tkhd.writeUInt32BE((options.width ?? 1280) << 16, 76);
  tkhd.writeUInt32BE((options.height ?? 720) << 16, 80);
  const moov = box('moov', box('mvhd', mvhd), box('trak', box('tkhd', tkhd)));
  const head = options.moovAtEnd ? ftyp : Buffer.concat([ftyp, moov]);
  const tail = options.moovAtEnd ? moov : Buffer.alloc(0);
  const mdatSize = Math.max(8, (options.sizeBytes ?? 4096) - head.length - tail.length);
  const mdat = Buffer.alloc(mdatSize);
  mdat.writeUInt32BE(mdatSize, 0);
  mdat.write('mdat', 4, 'latin1');
  return Buffer.concat([head, mdat, tail]);
}

export async function put(url: string, body: Buffer): Promise<Response> {
  return fetch(url, { method: 'PUT', body });
}

/** Uploads bytes with a single presigned PUT and completes the media; returns the media id. */
export async function uploadMedia(emulator: TestEmulator, bytes: Buffer, declared: { kind: 'image' | 'video'; contentType: string; fileName?: string }, key?: string): Promise<string> {
  const ticket = await emulator.api('POST', '/media/uploads', {
    key,
    body: { kind: declared.kind, contentType: declared.contentType, sizeBytes: bytes.length, fileName: declared.fileName ?? 'file.bin' },
  });
  if (ticket.status !== 201) throw new Error(`upload ticket: ${ticket.status} ${JSON.stringify(ticket.body)}`);
  const stored = await put(ticket.body.data.upload.url, bytes);
  if (stored.status !== 200) throw new Error(`PUT: ${stored.status} ${await stored.text()}`);
  const completed = await emulator.api('POST', `/media/${ticket.body.data.media.id}/complete`, { key });
  if (completed.status !== 200) throw new Error(`complete: ${completed.status} ${JSON.stringify(completed.body)}`);
  return ticket.body.data.media.id as string;
}

/** A create body for one target; content and options as given. */
export function postBody(accountId: string, extra: Record<string, unknown> = {}, options?: Record<string, unknown>): Record<string, unknown> {
  return { content: 'Hello world', targets: [{ socialAccountId: accountId, ...(options ? { options } : {}) }], mediaIds: [], ...extra };
}

export const inOneHour = (from = Date.now()): string => new Date(from + 3600_000).toISOString();
