import { open, type FileHandle } from 'node:fs/promises';

/** What the movie header and the first video track header say. */
export interface Mp4Info {
  durationSeconds?: number;
  width?: number;
  height?: number;
}

/** The largest `moov` box read into memory; larger ones (very long videos) are read only for mvhd. */
const MAX_MOOV_BYTES = 16 * 1024 * 1024;

interface Box {
  type: string;
  /** Offset of the payload (after the header). */
  start: number;
  /** Offset one past the end of the box. */
  end: number;
}

async function readBoxHeader(handle: FileHandle, offset: number, fileEnd: number): Promise<Box | undefined> {
  if (offset + 8 > fileEnd) return undefined;
  const header = Buffer.alloc(16);
  const { bytesRead } = await handle.read(header, 0, 16, offset);
  if (bytesRead < 8) return undefined;
  let size = header.readUInt32BE(0);
  let headerSize = 8;
  if (size === 1) {
    if (bytesRead < 16) return undefined;
    size = Number(header.readBigUInt64BE(8));
    headerSize = 16;
  } else if (size === 0) {
    size = fileEnd - offset;
  }
  if (size < headerSize) return undefined;
  return { type: header.toString('latin1', 4, 8), start: offset + headerSize, end: Math.min(offset + size, fileEnd) };
}

function* childBoxes(buffer: Buffer, start: number, end: number): Generator<Box> {
  let offset = start;
  while (offset + 8 <= end) {
    let size = buffer.readUInt32BE(offset);
    let headerSize = 8;
    if (size === 1 && offset + 16 <= end) {
      size = Number(buffer.readBigUInt64BE(offset + 8));
      headerSize = 16;
    } else if (size === 0) size = end - offset;
    if (size < headerSize) return;
    yield { type: buffer.toString('latin1', offset + 4, offset + 8), start: offset + headerSize, end: Math.min(offset + size, end) };
    offset += size;
  }
}

function movieDuration(moov: Buffer, mvhd: Box): number | undefined {
  const version = moov.readUInt8(mvhd.start);
  const timescaleAt = mvhd.start + (version === 1 ? 20 : 12);
  if (timescaleAt + (version === 1 ? 12 : 8) > mvhd.end) return undefined;
  const timescale = moov.readUInt32BE(timescaleAt);
  const duration = version === 1 ? Number(moov.readBigUInt64BE(timescaleAt + 4)) : moov.readUInt32BE(timescaleAt + 4);
  return timescale > 0 ? Math.round((duration / timescale) * 1000) / 1000 : undefined;
}

/** Width and height of the first track whose header has a non-zero size (the video track). */
function videoSize(moov: Buffer, moovBox: Box): { width: number; height: number } | undefined {
  for (const trak of childBoxes(moov, moovBox.start, moovBox.end)) {
    if (trak.type !== 'trak') continue;
    for (const tkhd of childBoxes(moov, trak.start, trak.end)) {
      if (tkhd.type !== 'tkhd') continue;
      const at = tkhd.start + (moov.readUInt8(tkhd.start) === 1 ? 88 : 76);
      if (at + 8 > tkhd.end) continue;
      const width = moov.readUInt32BE(at) >>> 16;
      const height = moov.readUInt32BE(at + 4) >>> 16;
      if (width > 0 && height > 0) return { width, height };
    }
  }
  return undefined;
}

/**
 * Reads an MP4/MOV file's duration (`moov/mvhd`) and video size (`moov/trak/tkhd`) by walking the
 * box tree with positioned reads: only the box headers and the `moov` box are read, wherever
 * `moov` sits in the file.
 */
export async function readMp4Info(path: string): Promise<Mp4Info> {
  const handle = await open(path, 'r');
  try {
    const { size: fileEnd } = await handle.stat();
    for (let offset = 0, box = await readBoxHeader(handle, 0, fileEnd); box; box = await readBoxHeader(handle, offset, fileEnd)) {
      offset = box.end;
      if (box.type !== 'moov') continue;
      const length = Math.min(box.end - box.start, MAX_MOOV_BYTES);
      const moov = Buffer.alloc(length);
      await handle.read(moov, 0, length, box.start);
      const inner: Box = { type: 'moov', start: 0, end: length };
      const info: Mp4Info = {};
      for (const child of childBoxes(moov, inner.start, inner.end)) {
        if (child.type === 'mvhd') info.durationSeconds = movieDuration(moov, child);
      }
      const dimensions = videoSize(moov, inner);
      return dimensions ? { ...info, ...dimensions } : info;
    }
    return {};
  } finally {
    await handle.close();
  }
}
