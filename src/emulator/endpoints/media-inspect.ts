import { probeMedia } from '../../media/probe.js';
import type { StoredMedia } from '../store/model.js';
import type { ObjectStorage } from '../store/storage.js';

/** MP4 and MOV share the ISO box format; a brand does not reliably tell them apart. */
const ISO_VIDEO = ['video/mp4', 'video/quicktime'];
const sameType = (declared: string, found: string): boolean => declared === found || (ISO_VIDEO.includes(declared) && ISO_VIDEO.includes(found));

/** What the stored bytes say about the media, kept on the media once the upload is completed. */
export type InspectedMedia = Pick<StoredMedia, 'width' | 'height' | 'durationSeconds' | 'videoCodec' | 'audioCodec'>;

export type Inspection = { ok: true; facts: InspectedMedia } | { ok: false; problem: string };

/**
 * Checks a stored object against its declaration: exact size, and type by magic bytes (the
 * shared probe of src/media: a few positioned reads, whatever the size). Keeps the dimensions,
 * the duration and the codecs it read.
 */
export async function inspectStoredMedia(storage: ObjectStorage, media: StoredMedia, storedSize: number): Promise<Inspection> {
  if (storedSize !== media.sizeBytes) return { ok: false, problem: `stored object is ${storedSize} bytes but sizeBytes was declared as ${media.sizeBytes}` };
  const probe = await probeMedia(storage.fileOf(media.objectKey));
  if (!probe.contentType) return { ok: false, problem: `the stored bytes are not a recognised image or video (declared ${media.contentType})` };
  if (!sameType(media.contentType, probe.contentType)) return { ok: false, problem: `the stored bytes are ${probe.contentType} but ${media.contentType} was declared` };
  if (probe.kind !== media.kind) return { ok: false, problem: `the stored ${probe.contentType} cannot be read as ${media.kind === 'image' ? 'an image' : 'a video'}: ${probe.problem ?? 'unknown reason'}` };
  const facts: InspectedMedia = {};
  for (const field of ['width', 'height', 'durationSeconds', 'videoCodec', 'audioCodec'] as const) {
    if (probe[field] !== undefined) Object.assign(facts, { [field]: probe[field] });
  }
  return { ok: true, facts };
}
