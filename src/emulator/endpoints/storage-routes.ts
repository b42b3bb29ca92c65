import { Readable } from 'node:stream';
import { ErrorCodes } from '../../api/error-codes.js';
import type { Services } from '../http/context.js';
import { ApiError, notFound } from '../protocol/envelope.js';
import type { Exchange } from '../http/exchange.js';
import type { StoredMedia } from '../store/model.js';
import { STORAGE_PREFIX } from '../http/server.js';
import { stagingKey } from './multipart.js';
import { ObjectTooLargeError } from '../store/storage.js';
import type { Project } from '../store/store.js';
import { posterKey } from './views.js';

/** A 1×1 grey PNG: the poster of every video (the emulator does not decode video frames). */
const POSTER_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** What an object key refers to: a media object, one part of a multipart upload, or a poster. */
type Target = { kind: 'object'; mediaId: string } | { kind: 'part'; mediaId: string; partNumber: number } | { kind: 'poster'; mediaId: string };

function parseKey(objectKey: string): Target | undefined {
  let m = /^media\/([0-9a-f-]{36})\/[^/]+$/.exec(objectKey);
  if (m) return { kind: 'object', mediaId: m[1] as string };
  m = /^uploads\/([0-9a-f-]{36})\/part-(\d{1,3})$/.exec(objectKey);
  if (m) return { kind: 'part', mediaId: m[1] as string, partNumber: Number(m[2]) };
  m = /^posters\/([0-9a-f-]{36})\.png$/.exec(objectKey);
  if (m) return { kind: 'poster', mediaId: m[1] as string };
  return undefined;
}

function findMedia(services: Services, mediaId: string): { project: Project; media: StoredMedia } | undefined {
  for (const project of services.store.projects.values()) {
    const media = project.media.get(mediaId);
    if (media) return { project, media };
  }
  return undefined;
}

const closed = (why: string): ApiError => new ApiError(409, ErrorCodes.uploadClosed, why);

/**
 * `/_storage/...`: PUT with a presigned URL (no API key) streams the body to a file and answers
 * with its ETag; GET serves completed objects and video posters publicly.
 */
export async function handleStorage(services: Services, exchange: Exchange): Promise<void> {
  let objectKey: string;
  try {
    objectKey = decodeURIComponent(exchange.path.slice(STORAGE_PREFIX.length));
  } catch {
    throw notFound('object');
  }
  const target = parseKey(objectKey);
  const found = target && findMedia(services, target.mediaId);
  if (exchange.method === 'PUT') return put(services, exchange, objectKey, target, found);
  if (exchange.method !== 'GET' && exchange.method !== 'HEAD') throw notFound(`storage route ${exchange.method}`);
  if (!target || !found || found.media.state !== 'completed' || target.kind === 'part') throw notFound('object');
  if (target.kind === 'poster') {
    if (found.media.kind !== 'video') throw notFound('object');
    return exchange.stream(200, { 'Content-Type': 'image/png', 'Content-Length': String(POSTER_PNG.length) }, Readable.from([POSTER_PNG]));
  }
  if (objectKey !== found.media.objectKey) throw notFound('object');
  const headers = { 'Content-Type': found.media.contentType, 'Content-Length': String(found.media.sizeBytes) };
  if (exchange.method === 'HEAD') return exchange.empty(200, headers);
  return exchange.stream(200, headers, services.storage.read(objectKey));
}

async function put(services: Services, exchange: Exchange, objectKey: string, target: Target | undefined, found: ReturnType<typeof findMedia>): Promise<void> {
  const { req } = exchange;
  const signature = services.storage.verify('PUT', exchange.path, exchange.url.searchParams, services.clock.now());
  if (signature !== 'valid') {
    req.resume();
    if (signature === 'expired') throw new ApiError(403, ErrorCodes.urlExpired, 'this presigned URL has expired; request a new one');
    throw new ApiError(403, ErrorCodes.signatureInvalid, 'missing or invalid signature for this object');
  }
  if (!target || !found || target.kind === 'poster') {
    req.resume();
    throw notFound('upload');
  }
  const { media } = found;
  if (media.state !== 'uploading' || media.multipart?.assembled) {
    req.resume();
    throw closed(`the upload of media ${media.id} is ${media.state === 'aborted' ? 'aborted' : 'already completed'}`);
  }
  const plan = media.multipart;
  if (target.kind === 'part' && (!plan || target.partNumber < 1 || target.partNumber > plan.partCount)) {
    req.resume();
    throw notFound('upload part');
  }
  const maxBytes = target.kind === 'part' && plan ? plan.partSizeBytes : media.sizeBytes;
  let stored: { size: number; etag: string };
  try {
    stored =
      target.kind === 'part' && plan
        ? await services.storage.writeAt(stagingKey(media.id), (target.partNumber - 1) * plan.partSizeBytes, req, { maxBytes, durable: services.durable })
        : await services.storage.write(objectKey, req, { maxBytes, durable: services.durable });
  } catch (error) {
    if (error instanceof ObjectTooLargeError) {
      throw new ApiError(413, ErrorCodes.payloadTooLarge, `${error.message} (declared ${maxBytes} bytes)`, { Connection: 'close' });
    }
    throw error;
  }
  if (target.kind === 'part') {
    // Re-read: other parts may have been recorded while this one streamed.
    await services.transaction(async () => {
      const current = found.project.media.get(media.id);
      if (current?.multipart && current.state === 'uploading') {
        const parts = { ...current.multipart.parts, [String(target.partNumber)]: stored };
        services.store.putMedia(found.project.id, { ...current, multipart: { ...current.multipart, parts } });
        await services.commit();
      }
    });
  }
  exchange.empty(200, { ETag: stored.etag });
}
