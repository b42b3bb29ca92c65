import { imageSize } from 'image-size';
import { readMp4Info } from './mp4.js';
import type { StoredMedia } from './model.js';
import type { ObjectStorage } from './storage.js';

/** Bytes read from the start of an object to sniff its type and, for images, its size. */
const HEAD_BYTES = 512 * 1024;

/** The content type the magic bytes say, or undefined when they match nothing known. */
export function sniffContentType(head: Buffer): string | undefined {
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47 && head.readUInt32BE(4) === 0x0d0a1a0a) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 6 && /^GIF8[79]a$/.test(head.toString('latin1', 0, 6))) return 'image/gif';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp') {
    return head.toString('latin1', 8, 12) === 'qt  ' ? 'video/quicktime' : 'video/mp4';
  }
  return undefined;
}

/** MP4 and MOV share the ISO box format; a brand does not reliably tell them apart. */
const sameFamily = (declared: string, sniffed: string): boolean =>
  declared === sniffed || (['video/mp4', 'video/quicktime'].includes(declared) && ['video/mp4', 'video/quicktime'].includes(sniffed));

export type Inspection = { ok: true; width?: number; height?: number; durationSeconds?: number } | { ok: false; problem: string };

/**
 * Checks a stored object against its declaration: exact size, and type by magic bytes. Reads
 * image dimensions (image-size on the first 512 KiB) and MP4 duration/dimensions (box headers).
 */
export async function inspectStoredMedia(storage: ObjectStorage, media: StoredMedia, storedSize: number): Promise<Inspection> {
  if (storedSize !== media.sizeBytes) return { ok: false, problem: `stored object is ${storedSize} bytes but sizeBytes was declared as ${media.sizeBytes}` };
  const head = await storage.head(media.objectKey, HEAD_BYTES);
  const sniffed = sniffContentType(head);
  if (!sniffed) return { ok: false, problem: `the stored bytes are not a recognised image or video (declared ${media.contentType})` };
  if (!sameFamily(media.contentType, sniffed)) return { ok: false, problem: `the stored bytes are ${sniffed} but ${media.contentType} was declared` };
  if (media.kind === 'image') {
    try {
      const { width, height } = imageSize(head);
      return { ok: true, width, height };
    } catch {
      return { ok: true };
    }
  }
  const info = await readMp4Info(storage.fileOf(media.objectKey));
  return { ok: true, ...info };
}
