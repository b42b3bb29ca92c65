import { childBoxes, CorruptMediaError, findChild, readPayload, type BoxHeader, type ReadAt } from './boxes.js';

/** What the moov box tells about a movie. Codecs are sample-entry fourccs, as stored. */
export interface MovieInfo {
  durationSeconds?: number;
  video?: { fourcc: string; width?: number; height?: number };
  audio?: { fourcc: string };
}

/** Once moov is found, this many more top-level boxes are walked to notice a truncated file. */
const BOXES_CHECKED_AFTER_MOOV = 16;

/** Finds the top-level moov box (at the start or the end of the file) and reads the movie from it. */
export async function readMovie(readAt: ReadAt, fileSize: number): Promise<MovieInfo> {
  let moov: BoxHeader | undefined;
  let checkedAfterMoov = 0;
  for await (const box of childBoxes(readAt, 0, fileSize)) {
    if (moov && ++checkedAfterMoov > BOXES_CHECKED_AFTER_MOOV) break;
    if (box.type === 'moov' && !moov) moov = box;
  }
  if (!moov) throw new CorruptMediaError('no moov box (not a complete MP4/MOV file)');
  return parseMoov(readAt, moov);
}

interface TimeInfo {
  timescale: number;
  duration?: number;
}

interface TrackInfo {
  handler?: string;
  fourcc?: string;
  media?: TimeInfo;
  size?: { width: number; height: number };
  /** From the tkhd matrix: a quarter turn swaps displayed width and height. */
  quarterTurn: boolean;
  entrySize?: { width: number; height: number };
}

async function parseMoov(readAt: ReadAt, moov: BoxHeader): Promise<MovieInfo> {
  let movie: TimeInfo | undefined;
  let fragmentDuration: number | undefined;
  const tracks: TrackInfo[] = [];
  for await (const child of childBoxes(readAt, moov.payloadStart, moov.end)) {
    if (child.type === 'mvhd') movie = await readTimeInfo(readAt, child);
    else if (child.type === 'trak') tracks.push(await parseTrak(readAt, child));
    else if (child.type === 'mvex') fragmentDuration = await readFragmentDuration(readAt, child);
  }
  const video = tracks.find((track) => track.handler === 'vide' && track.fourcc);
  const audio = tracks.find((track) => track.handler === 'soun' && track.fourcc);
  const info: MovieInfo = {};
  const seconds =
    toSeconds(movie?.duration, movie?.timescale) ??
    toSeconds(fragmentDuration, movie?.timescale) ??
    toSeconds(video?.media?.duration, video?.media?.timescale);
  if (seconds !== undefined) info.durationSeconds = seconds;
  if (video?.fourcc) {
    const size = video.size ?? video.entrySize;
    info.video = { fourcc: video.fourcc };
    if (size) {
      info.video.width = video.quarterTurn ? size.height : size.width;
      info.video.height = video.quarterTurn ? size.width : size.height;
    }
  }
  if (audio?.fourcc) info.audio = { fourcc: audio.fourcc };
  return info;
}

function toSeconds(duration: number | undefined, timescale: number | undefined): number | undefined {
  return duration && timescale ? duration / timescale : undefined;
}

async function parseTrak(readAt: ReadAt, trak: BoxHeader): Promise<TrackInfo> {
  const track: TrackInfo = { quarterTurn: false };
  for await (const child of childBoxes(readAt, trak.payloadStart, trak.end)) {
    if (child.type === 'tkhd') await readTrackHeader(readAt, child, track);
    if (child.type !== 'mdia') continue;
    for await (const part of childBoxes(readAt, child.payloadStart, child.end)) {
      if (part.type === 'mdhd') track.media = await readTimeInfo(readAt, part);
      else if (part.type === 'hdlr') track.handler = (await readPayload(readAt, part, 12)).toString('latin1', 8, 12);
      else if (part.type === 'minf') await readSampleEntry(readAt, part, track);
    }
  }
  return track;
}

/** A full box's payload with its version; version 1 boxes carry 64-bit times and need more bytes. */
async function readFullBox(
  readAt: ReadAt,
  box: BoxHeader,
  version0Bytes: number,
  version1Bytes: number,
): Promise<{ version: number; payload: Buffer }> {
  const payload = await readPayload(readAt, box, version0Bytes, version1Bytes);
  const version = payload[0] ?? 0;
  if (version === 1 && payload.length < version1Bytes) {
    throw new CorruptMediaError(`the ${box.type} box at byte ${box.start} is too short for version 1`);
  }
  return { version, payload };
}

/** mvhd and mdhd share this layout: version 1 has 64-bit times and duration. */
async function readTimeInfo(readAt: ReadAt, box: BoxHeader): Promise<TimeInfo> {
  const { version, payload } = await readFullBox(readAt, box, 20, 32);
  const timescale = payload.readUInt32BE(version === 1 ? 20 : 12);
  const duration = version === 1 ? payload.readBigUInt64BE(24) : BigInt(payload.readUInt32BE(16));
  const unknown = version === 1 ? 0xffffffffffffffffn : 0xffffffffn; // all ones: "duration not known"
  return duration === unknown || duration > BigInt(Number.MAX_SAFE_INTEGER)
    ? { timescale }
    : { timescale, duration: Number(duration) };
}

async function readFragmentDuration(readAt: ReadAt, mvex: BoxHeader): Promise<number | undefined> {
  const mehd = await findChild(readAt, mvex, 'mehd');
  if (!mehd) return undefined;
  const { version, payload } = await readFullBox(readAt, mehd, 8, 12);
  return version === 1 ? Number(payload.readBigUInt64BE(4)) : payload.readUInt32BE(4);
}

async function readTrackHeader(readAt: ReadAt, tkhd: BoxHeader, track: TrackInfo): Promise<void> {
  const { version, payload } = await readFullBox(readAt, tkhd, 84, 96);
  const matrixAt = version === 1 ? 52 : 40;
  const [a, , , , d] = [0, 1, 2, 3, 4].map((index) => payload.readInt32BE(matrixAt + index * 4));
  track.quarterTurn = a === 0 && d === 0;
  const width = Math.round(payload.readUInt32BE(matrixAt + 36) / 0x10000);
  const height = Math.round(payload.readUInt32BE(matrixAt + 40) / 0x10000);
  if (width > 0 && height > 0) track.size = { width, height };
}

/** minf → stbl → stsd: the fourcc (and, for video, the coded size) of the first sample entry. */
async function readSampleEntry(readAt: ReadAt, minf: BoxHeader, track: TrackInfo): Promise<void> {
  const stbl = await findChild(readAt, minf, 'stbl');
  const stsd = stbl && (await findChild(readAt, stbl, 'stsd'));
  if (!stsd) return;
  // version/flags (4), entry_count (4), then the first entry: size (4), fourcc (4), fields...
  const payload = await readPayload(readAt, stsd, 16, 44);
  if (payload.readUInt32BE(4) === 0) return;
  track.fourcc = payload.toString('latin1', 12, 16);
  if (payload.length >= 44) {
    const width = payload.readUInt16BE(40);
    const height = payload.readUInt16BE(42);
    if (width > 0 && height > 0) track.entrySize = { width, height };
  }
}
