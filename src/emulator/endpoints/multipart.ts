import { ErrorCodes } from '../../api/error-codes.js';
import type { MultipartResult } from '../../api/types.js';
import { requirePermission } from '../http/auth.js';
import type { ApiCall, Route } from '../http/context.js';
import { ApiError, ok, validationFailed, type Reply } from '../protocol/envelope.js';
import { MAX_PARTS, MULTIPART_TTL_MS, PRESIGN_TTL_MS } from './media.js';
import { findMedia } from './media-lookup.js';
import type { StoredMedia } from '../store/model.js';
import { Violations, isPlainObject, rejectUnknownFields } from '../protocol/validate.js';

const OPERATIONS = ['list', 'sign', 'complete', 'abort'] as const;
type Operation = (typeof OPERATIONS)[number];

/** Storage key (URL path) of one part of a multipart upload. */
export const partKey = (mediaId: string, partNumber: number): string => `uploads/${mediaId}/part-${partNumber}`;

/** Where the parts of a multipart upload are written, each at its own offset, until completed. */
export const stagingKey = (mediaId: string): string => `uploads/${mediaId}/object.partial`;

function parseBody(body: unknown, partCount: number): { operation: Operation; partNumber?: number } {
  if (!isPlainObject(body)) throw validationFailed(['body must be a JSON object with operation (list, sign, complete or abort)']);
  const violations = new Violations();
  rejectUnknownFields(body, ['operation', 'partNumber'], '', violations);
  const { operation, partNumber } = body;
  if (!OPERATIONS.includes(operation as Operation)) violations.add(`operation is required and must be one of ${OPERATIONS.join(', ')}`);
  if (operation === 'sign' && partNumber === undefined) violations.add('partNumber is required when operation is sign');
  if (partNumber !== undefined) {
    if (!Number.isInteger(partNumber) || (partNumber as number) < 1 || (partNumber as number) > MAX_PARTS) violations.add(`partNumber must be an integer from 1 to ${MAX_PARTS}`);
    else if ((partNumber as number) > partCount) violations.add(`partNumber must be within the upload's part count (${partCount})`);
  }
  violations.throwIfAny();
  return body as { operation: Operation; partNumber?: number };
}

const closed = (media: StoredMedia, why: string): ApiError => new ApiError(409, ErrorCodes.uploadClosed, `the multipart upload of media ${media.id} ${why}`);

/** Assemblies in flight, so two concurrent `complete` calls share one assembly. */
const assembling = new Map<string, Promise<void>>();

async function assemble(call: ApiCall, media: StoredMedia, plan: NonNullable<StoredMedia['multipart']>): Promise<void> {
  const missing: number[] = [];
  const wrongSize: string[] = [];
  for (let n = 1; n <= plan.partCount; n++) {
    const part = plan.parts[String(n)];
    const expected = n < plan.partCount ? plan.partSizeBytes : media.sizeBytes - plan.partSizeBytes * (plan.partCount - 1);
    if (!part) missing.push(n);
    else if (part.size !== expected) wrongSize.push(`part ${n} is ${part.size} bytes, expected ${expected}`);
  }
  if (missing.length > 0) throw new ApiError(409, ErrorCodes.uploadIncomplete, `parts not uploaded yet: ${missing.join(', ')} (of ${plan.partCount})`);
  if (wrongSize.length > 0) throw new ApiError(422, ErrorCodes.mediaInvalid, wrongSize);
  const { storage, store } = call.services;
  await storage.promote(stagingKey(media.id), media.objectKey, { sizeBytes: media.sizeBytes, durable: call.services.durable });
  await storage.remove(`uploads/${media.id}`);
  store.putMedia(call.project.id, { ...media, multipart: { ...plan, parts: {}, assembled: true } });
  await call.services.commit();
}

/**
 * POST /media/{id}/multipart. `sign` → `{ url }` (a presigned PUT for that part), `list` →
 * `{ parts }` (or `{ completed: true }` once assembled), `complete` → checks every part is there and makes the staged object the media's
 * → `{ completed: true }`, `abort` → deletes the parts → `{ aborted: true }`. complete and abort
 * are idempotent; anything else on a finished upload is 409 `upload_closed`.
 */
async function multipart(call: ApiCall): Promise<Reply> {
  requirePermission(call.caller, 'media-write');
  const media = findMedia(call);
  const plan = media.multipart;
  if (!plan) throw validationFailed([`media ${media.id} is a single-PUT upload, not a multipart upload`]);
  const { operation, partNumber } = parseBody(call.json(), plan.partCount);
  const { clock, storage, store, origin } = call.services;
  const done = plan.assembled || media.state === 'completed';
  let result: MultipartResult;
  if (operation === 'abort') {
    if (done) throw closed(media, 'is already completed');
    if (media.state !== 'aborted') {
      await storage.remove(`uploads/${media.id}`);
      store.putMedia(call.project.id, { ...media, state: 'aborted', multipart: { ...plan, parts: {} } });
      await call.services.commit();
    }
    result = { aborted: true };
  } else if (media.state === 'aborted') {
    throw closed(media, 'was aborted');
  } else if (done) {
    if (operation === 'sign') throw closed(media, 'is already completed');
    result = { completed: true };
  } else if (clock.now() > Date.parse(media.createdAt) + MULTIPART_TTL_MS) {
    throw closed(media, 'expired; start a new upload');
  } else if (operation === 'sign') {
    result = { url: `${origin}${storage.presign('PUT', partKey(media.id, partNumber as number), clock.now() + PRESIGN_TTL_MS)}` };
  } else if (operation === 'list') {
    const parts = Object.entries(plan.parts).map(([n, part]) => ({ partNumber: Number(n), etag: part.etag, size: part.size }));
    result = { parts: parts.sort((a, b) => a.partNumber - b.partNumber) };
  } else {
    let running = assembling.get(media.id);
    if (!running) {
      running = assemble(call, media, plan).finally(() => assembling.delete(media.id));
      assembling.set(media.id, running);
    }
    await running;
    result = { completed: true };
  }
  return ok(result);
}

export const multipartRoute: Route = { method: 'POST', path: '/media/:id/multipart', handler: multipart };
