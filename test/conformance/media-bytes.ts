import { makeMp4 } from '../helpers/media-generators/mp4.js';
import { makePng } from '../../src/media/solid-png.js';

/**
 * Real media bytes for uploads, from the project's pure-JS generators (checked against files of
 * real encoders in test/media): a 1×1 PNG, and H.264/AAC MP4 files of any size.
 */

export const PNG_1X1 = makePng({ width: 1, height: 1 });

/** An MP4 of exactly `sizeBytes` bytes lasting `durationSeconds`, 1280×720. */
export function mp4Bytes(sizeBytes: number, durationSeconds = 10): Buffer {
  return makeMp4({ durationSeconds, videoCodec: 'avc1', audioCodec: 'mp4a', width: 1280, height: 720, sizeBytes });
}
