import { checkedObject, isJsonObject, ResponseShapeError, type FieldType } from './read-fields.js';
import { MEDIA_FIELDS } from './read-post.js';
import type { Media, UploadTicket } from './types.js';

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
