import { ALL_PERMISSIONS } from '../../src/api/types.js';
import { makeMp4, makePng } from '../helpers/media-generators/index.js';
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

/** A real PNG of the given dimensions (the shared test-media generator). */
export const pngBytes = (width: number, height: number): Buffer => makePng({ width, height });

/** A real MP4 (H.264 + AAC) with the given duration, size and layout. */
export function mp4Bytes(options: { durationSeconds: number; width?: number; height?: number; sizeBytes?: number; moovAtEnd?: boolean }): Buffer {
  return makeMp4({ videoCodec: 'avc1', audioCodec: 'mp4a', width: 1280, height: 720, ...options });
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
