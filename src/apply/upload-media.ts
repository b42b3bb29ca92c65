import { randomUUID } from 'node:crypto';
import { basename, join } from 'node:path';
import pLimit from 'p-limit';
import { ErrorCodes } from '../api/error-codes.js';
import { ApiError, type ApiClient } from '../api/index.js';
import type { MediaUpload } from '../plan/types.js';
import { idempotencyKey } from '../state/idempotency.js';
import type { StateStore } from '../state/state-store.js';
import type { ApplyListener } from './events.js';

/** Files uploaded at once; each large file already sends its parts in parallel. */
const UPLOAD_CONCURRENCY = 2;

export interface UploadOptions {
  client: ApiClient;
  store: StateStore;
  root: string;
  /** State section (target) id: part of every Idempotency-Key. */
  targetId: string;
  onEvent: ApplyListener;
}

export interface UploadOutcome {
  /** sha256 of every file that could not be uploaded: the changes that use them cannot run. */
  failed: Map<string, Error>;
  uploadedFiles: number;
  uploadedBytes: number;
}

/**
 * Uploads every planned media file that the state has no media id for, each exactly once:
 * files recorded meanwhile are skipped, an interrupted multipart upload resumes from the parts
 * already stored, and the media id is written to state as soon as the service confirms the file.
 */
export async function uploadMedia(uploads: readonly MediaUpload[], options: UploadOptions): Promise<UploadOutcome> {
  const outcome: UploadOutcome = { failed: new Map(), uploadedFiles: 0, uploadedBytes: 0 };
  const limit = pLimit(UPLOAD_CONCURRENCY);
  await Promise.all(
    uploads.map((upload) =>
      limit(async () => {
        // A record without its seal was not written here: the file is uploaded again, and its record replaced.
        if (options.store.confirms('media', upload.sha256)) return;
        try {
          const sentBytes = await uploadOne(upload, options);
          outcome.uploadedFiles += 1;
          outcome.uploadedBytes += sentBytes;
        } catch (error) {
          const failure = error instanceof Error ? error : new Error(String(error));
          outcome.failed.set(upload.sha256, failure);
          options.onEvent({ type: 'upload-failed', upload, error: failure });
        }
      }),
    ),
  );
  return outcome;
}

async function uploadOne(upload: MediaUpload, options: UploadOptions): Promise<number> {
  const { client, store, onEvent } = options;
  const path = join(options.root, upload.path);
  const file = { path, sizeBytes: upload.sizeBytes, contentType: upload.contentType };
  const onProgress = (sentBytes: number) => onEvent({ type: 'upload-progress', upload, sentBytes });

  const pending = store.confirms('uploads', upload.sha256) ? store.section.uploads[upload.sha256] : undefined;
  if (pending) {
    onEvent({ type: 'upload-start', upload, resumed: true });
    try {
      const sent = await client.uploadMultipart(pending, file, { onProgress });
      return await finish(upload, pending.mediaId, Math.min(sent.sentParts * pending.partSizeBytes, upload.sizeBytes), options);
    } catch (error) {
      // The service forgot the upload (expired) or closed it (aborted): start again from nothing.
      if (!(error instanceof ApiError && (error.status === 404 || error.code === ErrorCodes.uploadClosed))) throw error;
      await store.clearUpload(upload.sha256);
    }
  }

  onEvent({ type: 'upload-start', upload, resumed: false });
  const body = { kind: upload.kind, contentType: upload.contentType, sizeBytes: upload.sizeBytes, fileName: basename(upload.path) };
  // One key per attempt: the client's retries after a lost answer get the same media, not a
  // second one. Not derived from the bytes alone, or another run (or project) uploading the same
  // file would be handed this attempt's ticket, already used or expired.
  const newTicket = () => client.createUpload(body, { idempotencyKey: idempotencyKey({ targetId: options.targetId, calendar: store.calendar, postKey: `media:${upload.sha256}:${randomUUID()}`, payload: body }) });
  let ticket = await newTicket();
  if (!ticket.upload.multipart) {
    try {
      await client.uploadSingle(ticket, file, { onProgress });
    } catch (error) {
      // The URL expired before its PUT got through (403 from storage): a new ticket, once, as multipart signs a part again.
      if (!(error instanceof ApiError && error.status === 403)) throw error;
      ticket = await newTicket();
      await client.uploadSingle(ticket, file, { onProgress });
    }
    return finish(upload, ticket.media.id, upload.sizeBytes, options);
  }
  const mediaId = ticket.media.id;
  const multipart = ticket.upload.multipart;
  const record = { mediaId, partSizeBytes: multipart.partSizeBytes, partCount: multipart.partCount, startedAt: new Date().toISOString() };
  await store.recordUpload(upload.sha256, record);
  try {
    await client.uploadMultipart(record, file, { onProgress });
  } catch (error) {
    // A refusal (4xx) cannot be resumed: abort it. Anything else stays resumable for the next run.
    if (error instanceof ApiError && error.status < 500 && error.status !== 429) {
      await client.multipart(mediaId, 'abort').catch(() => undefined);
      await store.clearUpload(upload.sha256);
    }
    throw error;
  }
  return finish(upload, mediaId, upload.sizeBytes, options);
}

async function finish(upload: MediaUpload, mediaId: string, sentBytes: number, options: UploadOptions): Promise<number> {
  const media = await options.client.completeMedia(mediaId);
  await options.store.recordMedia(upload.sha256, {
    mediaId: media.id,
    sizeBytes: upload.sizeBytes,
    contentType: upload.contentType,
    uploadedAt: new Date().toISOString(),
  });
  options.onEvent({ type: 'upload-done', upload, mediaId: media.id, sentBytes });
  return sentBytes;
}
