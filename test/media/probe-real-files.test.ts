import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeMedia } from '../../src/media/probe.js';

/**
 * Files made by real encoders (ffmpeg 5.1, libx264, libx265, libvpx-vp9, aac, libopus, ac3), a
 * 160x90 test pattern of 1.6 s. Made with, e.g.:
 *   ffmpeg -f lavfi -i testsrc=size=160x90:rate=5 -f lavfi -i sine=sample_rate=48000 -t 1.5 \
 *     -c:v libx264 -preset ultrafast -crf 45 -c:a aac -b:a 16k [-movflags +faststart | frag_keyframe+empty_moov] OUT
 * rotated.mp4: the faststart file remuxed with `-c copy -metadata:s:v:0 rotate=90`.
 */
const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name);

const h264Aac = { kind: 'video', videoCodec: 'h264', audioCodec: 'aac', width: 160, height: 90 };

describe('probeMedia on files from real encoders', () => {
  it.each([
    ['h264-aac-moov-end.mp4', { contentType: 'video/mp4', ...h264Aac, durationSeconds: 1.6 }],
    ['h264-aac-faststart.mp4', { contentType: 'video/mp4', ...h264Aac, durationSeconds: 1.6 }],
    ['rotated.mp4', { contentType: 'video/mp4', ...h264Aac, width: 90, height: 160, durationSeconds: 1.6 }],
    ['h264-ac3.mov', { contentType: 'video/quicktime', ...h264Aac, audioCodec: 'ac3', durationSeconds: 1.6 }],
    ['hevc.mov', { contentType: 'video/quicktime', kind: 'video', videoCodec: 'hevc', width: 160, height: 90, durationSeconds: 1.6 }],
    ['vp9-opus.mp4', { contentType: 'video/mp4', kind: 'video', videoCodec: 'vp9', audioCodec: 'opus', width: 160, height: 90, durationSeconds: 1.6 }],
    // Fragmented without mvex/mehd: the duration lives only in the fragments, which are not read.
    ['h264-aac-fragmented.mp4', { contentType: 'video/mp4', ...h264Aac }],
    // WebM is recognized as a video; its container is not parsed.
    ['clip.webm', { contentType: 'video/webm', kind: 'video' }],
  ])('%s', async (name, expected) => {
    expect(await probeMedia(fixture(name))).toEqual(expected);
  });
});
