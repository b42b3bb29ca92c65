import { randomUUID } from 'node:crypto';
import { ErrorCodes } from '../../api/error-codes.js';
import { MULTIPART_THRESHOLD_BYTES, type UploadTicket } from '../../api/types.js';
import { requirePermission } from '../http/auth.js';
import type { ApiCall, Route } from '../http/context.js';
import { withIdempotency } from '../http/idempotency.js';
import { ApiError, ok, validationFailed, type Reply } from '../protocol/envelope.js';
import { inspectStoredMedia } from './media-inspect.js';
import type { StoredMedia } from '../store/model.js';
import { findMedia } from './media-lookup.js';
import { Violations, isPlainObject, rejectUnknownFields } from '../protocol/validate.js';
import { mediaView } from './views.js';

const MiB = 1024 * 1024;
/** Content types an upload may declare, per kind. */
export const UPLOAD_TYPES = { image: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'], video: ['video/mp4', 'video/quicktime'] } as const;
/** Largest upload per kind: the largest any platform accepts. */
export const MAX_UPLOAD_BYTES = { image: 20 * MiB, video: 2 * 1024 * MiB } as const;
/** Presigned URLs expire this long after they are issued (emulator time). */
export const PRESIGN_TTL_MS = 15 * 60 * 1000;
/** A multipart upload can be signed, listed and completed for this long. */
export const MULTIPART_TTL_MS = 24 * 60 * 60 * 1000;
export const MIN_PART_BYTES = 5 * MiB;
export const MAX_PARTS = 128;

/** Smallest whole-MiB part size of at least 5 MiB that keeps the part count within 128. */
export function multipartPlan(sizeBytes: number): { partSizeBytes: number; partCount: number } {
  const partSizeBytes = Math.max(MIN_PART_BYTES, Math.ceil(sizeBytes / MAX_PARTS / MiB) * MiB);
  return { partSizeBytes, partCount: Math.ceil(sizeBytes / partSizeBytes) };
}

export const safeFileName = (name: string): string => name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_') || 'file';

function parseUploadBody(body: unknown): { kind: 'image' | 'video'; contentType: string; sizeBytes: number; fileName: string } {
  if (!isPlainObject(body)) throw validationFailed(['body must be a JSON object']);
  const violations = new Violations();
  rejectUnknownFields(body, ['kind', 'contentType', 'sizeBytes', 'fileName'], '', violations);
  const { kind, contentType, sizeBytes, fileName } = body;
  if (kind !== 'image' && kind !== 'video') violations.add('kind must be image or video');
  else {
    const types: readonly string[] = UPLOAD_TYPES[kind];
    if (typeof contentType !== 'string' || !types.includes(contentType)) violations.add(`contentType must be one of ${types.join(', ')} for ${kind} uploads`);
    if (!Number.isSafeInteger(sizeBytes) || (sizeBytes as number) < 1 || (sizeBytes as number) > MAX_UPLOAD_BYTES[kind]) {
      violations.add(`sizeBytes must be an integer from 1 to ${MAX_UPLOAD_BYTES[kind]} for ${kind} uploads`);
    }
  }
  if (typeof fileName !== 'string' || fileName.length < 1 || fileName.length > 255 || /[/\\\u0000-\u001f]/.test(fileName)) {
    violations.add('fileName must be 1 to 255 characters, without slashes or control characters');
  }
  violations.throwIfAny();
  return body as ReturnType<typeof parseUploadBody>;
}

/**
 * POST /media/uploads: a Media (not yet available) and where to PUT its bytes. Choice: like
 * POST /posts it honours an `Idempotency-Key`, so a client whose answer was lost can retry
 * without leaving a second, orphaned media behind.
 */
async function createUpload(call: ApiCall): Promise<Reply> {
  requirePermission(call.caller, 'media-write');
  const body = call.json();
  return withIdempotency(call, { route: 'POST /media/uploads', body }, () => startUpload(call, body));
}

async function startUpload(call: ApiCall, body: unknown): Promise<Reply> {
  const input = parseUploadBody(body);
  const { clock, storage, store, origin } = call.services;
  const id = randomUUID();
  const media: StoredMedia = { ...input, id, objectKey: `media/${id}/${safeFileName(input.fileName)}`, createdAt: clock.nowIso(), state: 'uploading' };
  const multipart = input.kind === 'video' && input.sizeBytes > MULTIPART_THRESHOLD_BYTES;
  const expiresMs = clock.now() + (multipart ? MULTIPART_TTL_MS : PRESIGN_TTL_MS);
  const upload: UploadTicket['upload'] = { method: 'PUT', headers: { 'Content-Type': input.contentType }, expiresAt: new Date(expiresMs).toISOString() };
  if (multipart) {
    const plan = multipartPlan(input.sizeBytes);
    media.multipart = { ...plan, parts: {}, assembled: false };
    upload.multipart = plan;
  } else {
    upload.url = `${origin}${storage.presign('PUT', media.objectKey, expiresMs)}`;
  }
  // Made durable with its Idempotency-Key, in one journal line.
  store.putMedia(call.project.id, media);
  const ticket: UploadTicket = { media: mediaView(media, origin), upload };
  return ok(ticket, 201);
}

/** POST /media/{id}/complete: validates the stored object (size, magic bytes) and makes the media available. */
async function completeUpload(call: ApiCall): Promise<Reply> {
  requirePermission(call.caller, 'media-write');
  const media = findMedia(call);
  const body = call.json();
  if (body !== undefined && !(isPlainObject(body) && Object.keys(body).length === 0)) throw validationFailed(['body must be empty or {}']);
  const { storage, store, origin } = call.services;
  if (media.state === 'completed') return ok(mediaView(media, origin));
  if (media.state === 'aborted') throw new ApiError(409, ErrorCodes.uploadClosed, `upload of media ${media.id} was aborted`);
  if (media.multipart && !media.multipart.assembled) {
    throw new ApiError(409, ErrorCodes.uploadIncomplete, 'the multipart upload is not assembled yet: upload every part, then call POST /media/{id}/multipart with {"operation":"complete"}');
  }
  const size = await storage.size(media.objectKey);
  if (size === null) throw new ApiError(409, ErrorCodes.uploadIncomplete, `no bytes stored for media ${media.id} yet: PUT the file to the upload URL first`);
  const inspection = await inspectStoredMedia(storage, media, size);
  if (!inspection.ok) throw new ApiError(422, ErrorCodes.mediaInvalid, inspection.problem);
  const completed: StoredMedia = { ...media, ...inspection.facts, state: 'completed' };
  store.putMedia(call.project.id, completed);
  await call.services.commit();
  return ok(mediaView(completed, origin));
}

export const mediaRoutes: Route[] = [
  { method: 'POST', path: '/media/uploads', handler: createUpload },
  { method: 'POST', path: '/media/:id/complete', handler: completeUpload },
];
