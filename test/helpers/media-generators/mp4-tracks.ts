import { box, displayMatrix, fields, fullBox, LANGUAGE_UNDETERMINED, timeField } from './iso-boxes.js';

export type GeneratedVideoCodec = 'avc1' | 'hvc1';
export type GeneratedAudioCodec = 'mp4a';

export interface TrackTiming {
  /** 1 selects 64-bit creation/modification/duration fields. */
  version: 0 | 1;
  movieDuration: number;
  mediaTimescale: number;
  mediaDuration: number;
}

export interface VideoTrackOptions extends TrackTiming {
  codec: GeneratedVideoCodec;
  width: number;
  height: number;
  rotationDegrees: 0 | 90 | 180 | 270;
}

export function videoTrak(options: VideoTrackOptions): Buffer {
  const entry = box(
    options.codec,
    fields(Buffer.alloc(6), [1, 2], Buffer.alloc(16), [options.width, 2], [options.height, 2]),
    fields([0x00480000, 4], [0x00480000, 4], [0, 4], [1, 2], Buffer.alloc(32), [0x18, 2], [0xffff, 2]),
    options.codec === 'avc1' ? avcC() : hvcC(),
  );
  return trak({
    ...options,
    trackId: 1,
    volume: 0,
    matrix: displayMatrix(options.rotationDegrees),
    width: options.width,
    height: options.height,
    handler: 'vide',
    handlerName: 'VideoHandler',
    mediaHeader: fullBox('vmhd', 0, 1, Buffer.alloc(8)),
    sampleEntry: entry,
  });
}

export function audioTrak(options: TrackTiming & { codec: GeneratedAudioCodec }): Buffer {
  const sampleRate = options.mediaTimescale;
  const entry = box(
    options.codec,
    fields(Buffer.alloc(6), [1, 2], Buffer.alloc(8), [2, 2], [16, 2], [0, 2], [0, 2], [sampleRate * 0x10000, 4]),
    esds(),
  );
  return trak({
    ...options,
    trackId: 2,
    volume: 0x0100,
    matrix: displayMatrix(0),
    width: 0,
    height: 0,
    handler: 'soun',
    handlerName: 'SoundHandler',
    mediaHeader: fullBox('smhd', 0, 0, Buffer.alloc(4)),
    sampleEntry: entry,
  });
}

interface TrakParts extends TrackTiming {
  trackId: number;
  volume: number;
  matrix: Buffer;
  width: number;
  height: number;
  handler: 'vide' | 'soun';
  handlerName: string;
  mediaHeader: Buffer;
  sampleEntry: Buffer;
}

function trak(parts: TrakParts): Buffer {
  const { version } = parts;
  const tkhd = fullBox(
    'tkhd',
    version,
    0x000003, // enabled, in movie
    timeField(version, 0),
    timeField(version, 0),
    fields([parts.trackId, 4], [0, 4]),
    timeField(version, parts.movieDuration),
    fields(Buffer.alloc(8), [0, 2], [0, 2], [parts.volume, 2], [0, 2], parts.matrix),
    fields([parts.width * 0x10000, 4], [parts.height * 0x10000, 4]),
  );
  const mdhd = fullBox(
    'mdhd',
    version,
    0,
    timeField(version, 0),
    timeField(version, 0),
    fields([parts.mediaTimescale, 4]),
    timeField(version, parts.mediaDuration),
    fields([LANGUAGE_UNDETERMINED, 2], [0, 2]),
  );
  const hdlr = fullBox('hdlr', 0, 0, fields([0, 4], parts.handler, Buffer.alloc(12), `${parts.handlerName}\0`));
  const dinf = box('dinf', fullBox('dref', 0, 0, fields([1, 4]), fullBox('url ', 0, 1)));
  const emptyTable = fields([0, 4]);
  const stbl = box(
    'stbl',
    fullBox('stsd', 0, 0, fields([1, 4]), parts.sampleEntry),
    fullBox('stts', 0, 0, emptyTable),
    fullBox('stsc', 0, 0, emptyTable),
    fullBox('stsz', 0, 0, fields([0, 4], [0, 4])),
    fullBox('stco', 0, 0, emptyTable),
  );
  return box('trak', tkhd, box('mdia', mdhd, hdlr, box('minf', parts.mediaHeader, dinf, stbl)));
}

/** AVC decoder configuration (ISO 14496-15) for baseline level 4.0, 4-byte NAL lengths, no parameter sets. */
function avcC(): Buffer {
  return box('avcC', Buffer.from([1, 0x42, 0xc0, 0x28, 0xff, 0xe0, 0]));
}

/** HEVC decoder configuration for Main profile, level 4.0, 4:2:0 8-bit, no parameter set arrays. */
function hvcC(): Buffer {
  return box(
    'hvcC',
    fields([1, 1], [0x01, 1], [0x60000000, 4], Buffer.alloc(6), [120, 1], [0xf000, 2], [0xfc, 1], [0xfd, 1]),
    fields([0xf8, 1], [0xf8, 1], [0, 2], [0x0f, 1], [0, 1]),
  );
}

/** Elementary stream descriptor for AAC-LC, 48 kHz, stereo. */
function esds(): Buffer {
  const descriptor = (tag: number, ...payload: Buffer[]): Buffer => {
    const body = Buffer.concat(payload);
    return Buffer.concat([Buffer.from([tag, body.length]), body]);
  };
  const decoderSpecificInfo = descriptor(0x05, Buffer.from([0x11, 0x90]));
  const decoderConfig = descriptor(
    0x04,
    fields([0x40, 1], [0x15, 1], Buffer.alloc(3), [128_000, 4], [128_000, 4]),
    decoderSpecificInfo,
  );
  return fullBox('esds', 0, 0, descriptor(0x03, fields([0, 2], [0, 1]), decoderConfig, descriptor(0x06, Buffer.from([2]))));
}
