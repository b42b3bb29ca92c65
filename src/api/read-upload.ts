import { checkedObject, isJsonObject, ResponseShapeError, type FieldType } from './read-fields.js';
import { MEDIA_FIELDS } from './read-post.js';
import type { Media, MultipartOperation, MultipartResult, UploadTicket } from './types.js';

/** The most parts a multipart upload has (the spec's `partNumber` runs from 1 to 128): a ticket with more would be followed part by part. */
const MAX_PARTS = 128;

const isCount = (value: unknown, max: number): boolean => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= max;

const UPLOAD_FIELDS: Readonly<Record<string, FieldType>> = { method: 'text', url: 'text', headers: 'object', expiresAt: 'text', multipart: 'object' };

/**
 * `data` of POST /media/uploads: the new media (an id), and where its bytes go: a url, or the
 * part size and count of a multipart upload. Headers storage asks for are texts, as HTTP sends them.
 */
export function readUploadTicket(data: unknown): UploadTicket {
  const endpoint = 'POST /media/uploads';
  const ticket = checkedObject(endpoint, data, '', { required: ['media', 'upload'], fields: { media: 'object', upload: 'object' } });
  checkedObject(endpoint, ticket.media, 'media', { required: ['id'], fields: MEDIA_FIELDS });
  const upload = checkedObject(endpoint, ticket.upload, 'upload', { fields: UPLOAD_FIELDS });
  if (isJsonObject(upload.headers)) {
    for (const [name, value] of Object.entries(upload.headers)) {
      if (typeof value !== 'string') throw new ResponseShapeError(endpoint, `upload.headers.${name}`, value, 'is not a text');
    }
  }
  if (upload.multipart !== undefined && upload.multipart !== null) {
    const multipart = checkedObject(endpoint, upload.multipart, 'upload.multipart', { required: ['partSizeBytes', 'partCount'], fields: { partSizeBytes: 'number', partCount: 'number' } });
    if (!isCount(multipart.partSizeBytes, Number.MAX_SAFE_INTEGER)) throw new ResponseShapeError(endpoint, 'upload.multipart.partSizeBytes', multipart.partSizeBytes, 'is not a whole number of bytes');
    if (!isCount(multipart.partCount, MAX_PARTS)) throw new ResponseShapeError(endpoint, 'upload.multipart.partCount', multipart.partCount, `is not a whole number from 1 to ${MAX_PARTS}`);
  }
  return ticket as unknown as UploadTicket;
}

/** `data` of POST /media/{id}/complete: the media, with its id. */
export function readCompletedMedia(data: unknown): Media {
  return checkedObject('POST /media/{id}/complete', data, '', { required: ['id'], fields: MEDIA_FIELDS }) as Media;
}

/**
 * `data` of POST /media/{id}/multipart for `operation`: a `url` for `sign`; for `list`, `parts`
 * (each with its number, ETag and size) unless storage says `completed`. Other answers of
 * `complete` and `abort` are read as they are: postsync only waits for them.
 */
export function readMultipartResult(operation: MultipartOperation, data: unknown): MultipartResult {
  const endpoint = 'POST /media/{id}/multipart';
  const result = checkedObject(endpoint, data, '', { fields: { url: 'text', completed: 'boolean', aborted: 'boolean' } });
  if (operation === 'sign') checkedObject(endpoint, result, '', { required: ['url'], fields: {} });
  if (operation === 'list' && result.completed !== true) {
    const parts = result.parts;
    if (!Array.isArray(parts)) throw new ResponseShapeError(endpoint, 'parts', parts === undefined ? result : parts, parts === undefined ? 'missing' : 'is not a list');
    parts.forEach((part, index) => checkedObject(endpoint, part, `parts[${index}]`, { required: ['partNumber', 'etag', 'size'], fields: { partNumber: 'number', etag: 'text', size: 'number' } }));
  }
  return result as MultipartResult;
}
