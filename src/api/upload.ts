import { PostsyncError } from '../errors.js';
import type { HttpConnection } from './http-connection.js';
import { ApiError } from './errors.js';
import type { MultipartOperation, MultipartResult, UploadTicket } from './types.js';
import { assertFileSize, forEachBounded, UploadProgress } from './upload-stream.js';

export interface SingleUploadFile {
  path: string;
  sizeBytes: number;
  contentType: string;
}

export interface MultipartUpload {
  mediaId: string;
  partSizeBytes: number;
  partCount: number;
}

export interface MultipartUploadOptions {
  /** Parts sent at once; default 4. */
  concurrency?: number;
  onProgress?: (sentBytes: number) => void;
  signal?: AbortSignal;
}

/** One part as storage holds it. */
export interface StoredPart {
  partNumber: number;
  etag: string;
  size: number;
}

export interface MultipartOutcome {
  sentParts: number;
  skippedParts: number;
  /** Every part with the ETag storage gave it; empty when storage had already assembled the file. */
  parts: StoredPart[];
}

type MultipartCall = (mediaId: string, operation: MultipartOperation, partNumber?: number) => Promise<MultipartResult>;

const DEFAULT_PART_CONCURRENCY = 4;

/** One presigned PUT of the whole file, streamed from disk. */
export async function uploadSingle(connection: HttpConnection, ticket: UploadTicket, file: SingleUploadFile, onProgress?: (sentBytes: number) => void): Promise<void> {
  const url = ticket.upload.url;
  if (url === undefined) {
    throw new PostsyncError(`Media ${ticket.media.id} needs a multipart upload, not a single PUT.`);
  }
  await assertFileSize(file.path, file.sizeBytes);
  const progress = new UploadProgress(onProgress);
  const headers = lowerCaseKeys({ 'content-type': file.contentType, 'content-length': String(file.sizeBytes), ...(ticket.upload.headers ?? {}) });
  await connection.storagePut({ url, headers, body: () => progress.stream(file.path, 0), operation: 'uploading media to storage' });
}

/**
 * Uploads the parts storage does not hold yet (a `list` first, so an interrupted upload resumes;
 * a stored part of the wrong size is sent again), at most `concurrency` at a time, each part
 * streamed from its byte range on disk. Then checks with `list` that every part is stored with
 * the ETag its PUT returned, and calls `complete`. The media-complete call is left to the caller.
 */
export async function uploadMultipart(
  connection: HttpConnection,
  multipart: MultipartCall,
  upload: MultipartUpload,
  file: { path: string; sizeBytes: number },
  options: MultipartUploadOptions = {},
): Promise<MultipartOutcome> {
  const { mediaId, partCount } = upload;
  const sizeOf = partSizes(upload, file.sizeBytes);
  await assertFileSize(file.path, file.sizeBytes);
  const listed = await multipart(mediaId, 'list');
  if ('completed' in listed) return { sentParts: 0, skippedParts: partCount, parts: [] };
  const stored = storedParts(listed, mediaId);
  const progress = new UploadProgress(options.onProgress);
  const missing: number[] = [];
  const etags = new Map<number, string>();
  for (let partNumber = 1; partNumber <= partCount; partNumber += 1) {
    const part = stored.get(partNumber);
    if (part !== undefined && part.size === sizeOf(partNumber)) {
      etags.set(partNumber, part.etag);
      progress.addDone(part.size);
    } else {
      missing.push(partNumber);
    }
  }
  const putPart = async (partNumber: number): Promise<void> => {
    const range = { offset: (partNumber - 1) * upload.partSizeBytes, length: sizeOf(partNumber) };
    // A presigned URL can expire while a part is retried: sign again once on a 403 from storage.
    for (let signing = 1; ; signing += 1) {
      const signed = await multipart(mediaId, 'sign', partNumber);
      if (!('url' in signed)) throw new PostsyncError(`Signing part ${partNumber} of media ${mediaId} returned no URL.`);
      try {
        const response = await connection.storagePut({
          url: signed.url,
          headers: { 'content-length': String(range.length), 'content-type': 'application/octet-stream' },
          body: () => progress.stream(file.path, partNumber, range),
          operation: `uploading part ${partNumber} of ${partCount} to storage`,
          signal: options.signal,
        });
        const etag = response.headers.etag;
        if (!etag) throw new PostsyncError(`Storage stored part ${partNumber} of media ${mediaId} without an ETag.`);
        etags.set(partNumber, etag);
        return;
      } catch (error) {
        if (signing === 1 && error instanceof ApiError && error.status === 403) continue;
        throw error;
      }
    }
  };
  await forEachBounded(missing, options.concurrency ?? DEFAULT_PART_CONCURRENCY, options.signal, putPart);
  const parts = await verifyStored(multipart, upload, sizeOf, etags);
  await multipart(mediaId, 'complete');
  return { sentParts: missing.length, skippedParts: partCount - missing.length, parts };
}

/** Size of each part: all `partSizeBytes` but the last, which holds the rest. */
function partSizes(upload: MultipartUpload, sizeBytes: number): (partNumber: number) => number {
  const last = sizeBytes - upload.partSizeBytes * (upload.partCount - 1);
  if (upload.partCount < 1 || last <= 0 || last > upload.partSizeBytes) {
    throw new PostsyncError(`Media ${upload.mediaId}: ${upload.partCount} parts of ${upload.partSizeBytes} bytes do not fit a file of ${sizeBytes} bytes.`);
  }
  return (partNumber) => (partNumber === upload.partCount ? last : upload.partSizeBytes);
}

function storedParts(result: MultipartResult, mediaId: string): Map<number, StoredPart> {
  if (!('parts' in result) || !Array.isArray(result.parts)) {
    throw new PostsyncError(`Listing the parts of media ${mediaId} returned no parts array.`);
  }
  return new Map(result.parts.map((part) => [part.partNumber, part]));
}

async function verifyStored(multipart: MultipartCall, upload: MultipartUpload, sizeOf: (partNumber: number) => number, etags: Map<number, string>): Promise<StoredPart[]> {
  const listed = await multipart(upload.mediaId, 'list');
  if ('completed' in listed) return [];
  const stored = storedParts(listed, upload.mediaId);
  const parts: StoredPart[] = [];
  for (let partNumber = 1; partNumber <= upload.partCount; partNumber += 1) {
    const part = stored.get(partNumber);
    const etag = etags.get(partNumber);
    if (part === undefined || part.size !== sizeOf(partNumber) || etag === undefined || bareEtag(part.etag) !== bareEtag(etag)) {
      throw new PostsyncError(`Storage does not hold part ${partNumber} of media ${upload.mediaId} as it was uploaded.`, {
        hint: 'Run again: the upload resumes and sends the part again.',
      });
    }
    parts.push(part);
  }
  return parts;
}

/** `"abc"` and `W/"abc"` name the same entity as `abc`. */
function bareEtag(etag: string): string {
  return etag.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
