import { open, type FileHandle } from 'node:fs/promises';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { audioCodecName, videoCodecName } from './codecs.js';
import { CorruptMediaError, type ReadAt } from './isobmff/boxes.js';
import { readMovie } from './isobmff/movie.js';

/**
 * What postsync learns about a media file from its bytes. `contentType` comes from magic bytes,
 * never from the file name. `kind` is `unknown` when the bytes are not an image or a video postsync
 * can read (unrecognized, truncated, corrupt, no video track); `problem` then says why.
 */
export interface MediaProbe {
  /** MIME type from magic bytes; '' when unknown. */
  contentType: string;
  kind: 'image' | 'video' | 'unknown';
  /** Displayed size: EXIF orientation (JPEG) and a quarter-turn track matrix (video) are applied. */
  width?: number;
  height?: number;
  durationSeconds?: number;
  /** Common codec name: h264, hevc, vp9, av1, ... (see codecs.ts). */
  videoCodec?: string;
  /** Common codec name: aac, opus, ac3, ... */
  audioCodec?: string;
  /** Why the file is `unknown`, in words, e.g. "the mdat box ... (truncated file?)". */
  problem?: string;
}

/** Bytes file-type needs to recognize every format it knows. */
const SNIFF_BYTES = 4100;
/** Image headers (JPEG may carry large EXIF before SOF) are read up to this much, never more. */
const IMAGE_HEADER_BYTES = 512 * 1024;
/** Brands of the ISO-BMFF family whose moov box we read. */
const ISO_BMFF_VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime', 'video/x-m4v', 'video/3gpp', 'video/3gpp2']);

/**
 * Probes a file with a few small positioned reads (memory and time do not grow with the size of
 * the file). Never throws for bad content; rejects only when the file cannot be opened or read.
 */
export async function probeMedia(absolutePath: string): Promise<MediaProbe> {
  const handle = await open(absolutePath, 'r');
  try {
    const { size } = await handle.stat();
    return await probeRead(positionedReader(handle), size);
  } finally {
    await handle.close();
  }
}

/** The same probe of bytes held in memory (a file not written yet). */
export function probeMediaBytes(bytes: Uint8Array): Promise<MediaProbe> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return probeRead(async (position, length) => buffer.subarray(position, position + length), buffer.length);
}

async function probeRead(readAt: ReadAt, size: number): Promise<MediaProbe> {
  const head = await readAt(0, Math.min(size, SNIFF_BYTES));
  const contentType = (await sniffContentType(head)) ?? '';
  if (contentType.startsWith('image/')) return probeImage(contentType, await readAt(0, Math.min(size, IMAGE_HEADER_BYTES)));
  if (ISO_BMFF_VIDEO_TYPES.has(contentType)) return await probeMovie(contentType, readAt, size);
  if (contentType.startsWith('video/')) return { contentType, kind: 'video' };
  return { contentType, kind: 'unknown', problem: contentType ? `${contentType} is not an image or a video` : 'unrecognized file format' };
}

function positionedReader(handle: FileHandle): ReadAt {
  return async (position, length) => {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  };
}

async function sniffContentType(head: Buffer): Promise<string | undefined> {
  try {
    return (await fileTypeFromBuffer(head))?.mime;
  } catch {
    return undefined; // file-type can throw on malformed headers; the file is then simply unrecognized
  }
}

function probeImage(contentType: string, header: Buffer): MediaProbe {
  try {
    const { width, height, orientation } = imageSize(header);
    const quarterTurn = orientation !== undefined && orientation >= 5; // EXIF 5..8 rotate by 90°
    return { contentType, kind: 'image', width: quarterTurn ? height : width, height: quarterTurn ? width : height };
  } catch {
    return { contentType, kind: 'unknown', problem: `the ${contentType} header cannot be read (truncated or corrupt file?)` };
  }
}

async function probeMovie(contentType: string, readAt: ReadAt, size: number): Promise<MediaProbe> {
  try {
    const movie = await readMovie(readAt, size);
    if (!movie.video) return { contentType, kind: 'unknown', problem: 'no video track' };
    const probe: MediaProbe = { contentType, kind: 'video', videoCodec: videoCodecName(movie.video.fourcc) };
    if (movie.video.width !== undefined) probe.width = movie.video.width;
    if (movie.video.height !== undefined) probe.height = movie.video.height;
    if (movie.durationSeconds !== undefined) probe.durationSeconds = movie.durationSeconds;
    if (movie.audio) probe.audioCodec = audioCodecName(movie.audio.fourcc);
    return probe;
  } catch (error) {
    if (error instanceof CorruptMediaError) return { contentType, kind: 'unknown', problem: error.message };
    throw error;
  }
}
