import { open } from 'node:fs/promises';
import { box, displayMatrix, fields, fullBox, largeBox, largeBoxHeader, timeField } from './iso-boxes.js';
import { audioTrak, videoTrak, type GeneratedAudioCodec, type GeneratedVideoCodec } from './mp4-tracks.js';
import { assertDimension } from '../../../src/media/solid-png.js';

export interface Mp4Options {
  durationSeconds: number;
  videoCodec: GeneratedVideoCodec;
  /** `null` or absent: no audio track. */
  audioCodec?: GeneratedAudioCodec | null;
  /** Coded frame size; the probe reports it rotated when `rotationDegrees` is 90 or 270. */
  width: number;
  height: number;
  /** Total file size; the mdat box is padded with zero bytes to reach it. Default: empty mdat. */
  sizeBytes?: number;
  /** `qt` writes a QuickTime (.mov) brand. Default `isom`. */
  brand?: 'isom' | 'qt';
  /** Put moov after mdat, as cameras and naive encoders do. */
  moovAtEnd?: boolean;
  /** Version-1 (64-bit) time fields and 64-bit `largesize` headers on moov and mdat. */
  use64Bit?: boolean;
  rotationDegrees?: 0 | 90 | 180 | 270;
}

const MOVIE_TIMESCALE = 1000;
const VIDEO_TIMESCALE = 90_000;
const AUDIO_TIMESCALE = 48_000;
const MAX_32BIT_BOX = 0xffffffff;

/** The file as three parts: bytes before the mdat payload, the payload length (zeros), bytes after. */
export interface Mp4Layout {
  head: Buffer;
  paddingBytes: number;
  tail: Buffer;
}

export function mp4Layout(options: Mp4Options): Mp4Layout {
  assertDimension('width', options.width, 65535);
  assertDimension('height', options.height, 65535);
  if (!(options.durationSeconds >= 0) || !Number.isFinite(options.durationSeconds)) {
    throw new RangeError(`durationSeconds must be a finite number >= 0, got ${options.durationSeconds}`);
  }
  const ftyp =
    options.brand === 'qt'
      ? box('ftyp', fields('qt  ', [0x20050300, 4], 'qt  '))
      : box('ftyp', fields('isom', [0x200, 4], 'isom', 'iso2', options.videoCodec === 'avc1' ? 'avc1' : 'hvc1', 'mp41'));
  const moov = buildMoov(options);
  const fixedBytes = ftyp.length + moov.length;
  const minimum = fixedBytes + (options.use64Bit ? 16 : 8);
  const sizeBytes = options.sizeBytes ?? minimum;
  if (!Number.isSafeInteger(sizeBytes) || sizeBytes < minimum) {
    throw new RangeError(`sizeBytes must be an integer >= ${minimum} for these options, got ${options.sizeBytes}`);
  }
  const mdatBytes = sizeBytes - fixedBytes;
  const useLargeMdat = options.use64Bit === true || mdatBytes > MAX_32BIT_BOX;
  const mdatHeader = useLargeMdat ? largeBoxHeader('mdat', mdatBytes - 16) : fields([mdatBytes, 4], 'mdat');
  const paddingBytes = mdatBytes - mdatHeader.length;
  return options.moovAtEnd
    ? { head: Buffer.concat([ftyp, mdatHeader]), paddingBytes, tail: moov }
    : { head: Buffer.concat([ftyp, moov, mdatHeader]), paddingBytes, tail: Buffer.alloc(0) };
}

/** A structurally valid MP4/MOV in memory: ftyp, moov (video and optional audio trak), mdat. */
export function makeMp4(options: Mp4Options): Buffer {
  const { head, paddingBytes, tail } = mp4Layout(options);
  return Buffer.concat([head, Buffer.alloc(paddingBytes), tail]);
}

const WRITE_CHUNK_BYTES = 1 << 20;

/**
 * Writes the same file as makeMp4 to `path` with memory independent of `sizeBytes`: the padding
 * is written in 1 MiB chunks of zeros, or, with `sparse`, left as a hole (instant, no disk blocks).
 */
export async function writeMp4File(path: string, options: Mp4Options & { sparse?: boolean }): Promise<void> {
  const { head, paddingBytes, tail } = mp4Layout(options);
  const handle = await open(path, 'w');
  try {
    await handle.write(head, 0, head.length, 0);
    let position = head.length;
    if (options.sparse) {
      position += paddingBytes;
      await handle.truncate(position);
    } else {
      const zeros = Buffer.alloc(Math.min(WRITE_CHUNK_BYTES, paddingBytes));
      for (let left = paddingBytes; left > 0; left -= zeros.length) {
        const length = Math.min(zeros.length, left);
        await handle.write(zeros, 0, length, position);
        position += length;
      }
    }
    if (tail.length > 0) await handle.write(tail, 0, tail.length, position);
  } finally {
    await handle.close();
  }
}

function buildMoov(options: Mp4Options): Buffer {
  const movieDuration = Math.round(options.durationSeconds * MOVIE_TIMESCALE);
  const videoDuration = Math.round(options.durationSeconds * VIDEO_TIMESCALE);
  const needs64 = videoDuration > MAX_32BIT_BOX;
  const version: 0 | 1 = options.use64Bit || needs64 ? 1 : 0;
  const hasAudio = options.audioCodec != null;
  const mvhd = fullBox(
    'mvhd',
    version,
    0,
    timeField(version, 0),
    timeField(version, 0),
    fields([MOVIE_TIMESCALE, 4]),
    timeField(version, movieDuration),
    fields([0x00010000, 4], [0x0100, 2], Buffer.alloc(10), displayMatrix(0), Buffer.alloc(24)),
    fields([hasAudio ? 3 : 2, 4]),
  );
  const tracks = [
    videoTrak({
      version,
      movieDuration,
      mediaTimescale: VIDEO_TIMESCALE,
      mediaDuration: videoDuration,
      codec: options.videoCodec,
      width: options.width,
      height: options.height,
      rotationDegrees: options.rotationDegrees ?? 0,
    }),
  ];
  if (options.audioCodec != null) {
    tracks.push(
      audioTrak({
        version,
        movieDuration,
        mediaTimescale: AUDIO_TIMESCALE,
        mediaDuration: Math.round(options.durationSeconds * AUDIO_TIMESCALE),
        codec: options.audioCodec,
      }),
    );
  }
  return options.use64Bit ? largeBox('moov', mvhd, ...tracks) : box('moov', mvhd, ...tracks);
}
