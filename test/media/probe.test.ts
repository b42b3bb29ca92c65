
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeGif, makeJpeg, makeMp4, makePng, makeWebp, writeMp4File } from '../helpers/media-generators/index.js';
import { probeMedia } from '../../src/media/probe.js';
import { testdir } from '../helpers/testdir.js';

async function probeBytes(name: string, bytes: Buffer) {
  const dir = await testdir({ [name]: bytes });
  return probeMedia(join(dir, name));
}

const clip = { durationSeconds: 15, videoCodec: 'avc1', audioCodec: 'mp4a', width: 1080, height: 1920 } as const;

describe('probeMedia: images', () => {
  it.each([
    ['png', makePng, 'image/png'],
    ['jpg', makeJpeg, 'image/jpeg'],
    ['gif', makeGif, 'image/gif'],
    ['webp', makeWebp, 'image/webp'],
  ] as const)('reads type and size of a %s', async (extension, make, contentType) => {
    const probe = await probeBytes(`a.${extension}`, make({ width: 1080, height: 1350 }));
    expect(probe).toEqual({ contentType, kind: 'image', width: 1080, height: 1350 });
  });

  it('takes the type from the bytes, not the extension', async () => {
    const probe = await probeBytes('not-a-video.mp4', makePng({ width: 10, height: 20 }));
    expect(probe).toEqual({ contentType: 'image/png', kind: 'image', width: 10, height: 20 });
  });

  it('reports the displayed size of a JPEG rotated by EXIF orientation', async () => {
    const jpeg = makeJpeg({ width: 40, height: 30 });
    const probe = await probeBytes('rotated.jpg', Buffer.concat([jpeg.subarray(0, 2), exifOrientation(6), jpeg.subarray(2)]));
    expect(probe).toMatchObject({ contentType: 'image/jpeg', kind: 'image', width: 30, height: 40 });
  });

  it('gives kind unknown, without throwing, for a truncated image', async () => {
    const png = makePng({ width: 10, height: 10 });
    expect(await probeBytes('cut.png', png.subarray(0, 20))).toEqual({
      contentType: 'image/png',
      kind: 'unknown',
      problem: 'the image/png header cannot be read (truncated or corrupt file?)',
    });
    expect(await probeBytes('stub.png', png.subarray(0, 12))).toMatchObject({ contentType: '', kind: 'unknown' });
  });
});

describe('probeMedia: videos', () => {
  it('reads an MP4: type, size, duration and codecs', async () => {
    const probe = await probeBytes('teaser.mp4', makeMp4(clip));
    expect(probe).toEqual({
      contentType: 'video/mp4',
      kind: 'video',
      width: 1080,
      height: 1920,
      durationSeconds: 15,
      videoCodec: 'h264',
      audioCodec: 'aac',
    });
  });

  it('reads hevc, a silent video, a fractional duration', async () => {
    const probe = await probeBytes('x.mp4', makeMp4({ ...clip, videoCodec: 'hvc1', audioCodec: null, durationSeconds: 95.25 }));
    expect(probe).toEqual({ contentType: 'video/mp4', kind: 'video', width: 1080, height: 1920, durationSeconds: 95.25, videoCodec: 'hevc' });
  });

  it('finds moov at the end of the file, behind a large mdat', async () => {
    const probe = await probeBytes('end.mp4', makeMp4({ ...clip, moovAtEnd: true, sizeBytes: 3_000_000 }));
    expect(probe).toMatchObject({ kind: 'video', durationSeconds: 15, videoCodec: 'h264', audioCodec: 'aac' });
  });

  it('reads 64-bit box sizes and version-1 (64-bit) time fields', async () => {
    for (const moovAtEnd of [false, true]) {
      const probe = await probeBytes('wide.mp4', makeMp4({ ...clip, use64Bit: true, moovAtEnd, sizeBytes: 100_000 }));
      expect(probe).toMatchObject({ kind: 'video', width: 1080, height: 1920, durationSeconds: 15, videoCodec: 'h264' });
    }
  });

  it('reads a QuickTime .mov and applies a quarter-turn track matrix', async () => {
    const probe = await probeBytes('phone.mov', makeMp4({ ...clip, width: 1920, height: 1080, brand: 'qt', rotationDegrees: 90 }));
    expect(probe).toMatchObject({ contentType: 'video/quicktime', kind: 'video', width: 1080, height: 1920 });
    const upsideDown = await probeBytes('flip.mov', makeMp4({ ...clip, width: 1920, height: 1080, rotationDegrees: 180 }));
    expect(upsideDown).toMatchObject({ width: 1920, height: 1080 });
  });

  it('gives kind unknown with the reason for a truncated or corrupt MP4, without throwing', async () => {
    const whole = makeMp4({ ...clip, moovAtEnd: true, sizeBytes: 50_000 });
    const truncated = await probeBytes('cut.mp4', whole.subarray(0, 30_000));
    expect(truncated).toMatchObject({ contentType: 'video/mp4', kind: 'unknown' });
    expect(truncated.problem).toBe('the mdat box at byte 32 needs 48998 bytes but only 29968 remain (truncated file?)');

    const headOnly = makeMp4(clip);
    const moovCut = await probeBytes('moov-cut.mp4', headOnly.subarray(0, headOnly.length - 200));
    expect(moovCut.kind).toBe('unknown');

    const garbled = Buffer.from(makeMp4(clip));
    garbled.writeUInt32BE(3, garbled.indexOf('moov') - 4); // a size smaller than a box header
    expect(await probeBytes('bad.mp4', garbled)).toMatchObject({ kind: 'unknown', problem: expect.stringMatching(/invalid size 3/) });

    const noMoov = makeMp4({ ...clip, moovAtEnd: true });
    const withoutMoov = noMoov.subarray(0, noMoov.indexOf('moov') - 4);
    expect(await probeBytes('nomoov.mp4', withoutMoov)).toMatchObject({ kind: 'unknown', problem: expect.stringMatching(/no moov/) });
  });

  it('gives kind unknown for an MP4 without a video track', async () => {
    const audioOnly = Buffer.from(makeMp4(clip));
    audioOnly.write('xxxx', audioOnly.indexOf('vide'), 'latin1'); // the video trak's handler is no longer `vide`
    expect(await probeBytes('audio.mp4', audioOnly)).toMatchObject({ kind: 'unknown', problem: 'no video track' });
  });

  it('probes a 200 MB file with moov at the end by reading only box headers', async () => {
    const dir = await testdir();
    const path = join(dir, 'big.mp4');
    await writeMp4File(path, { ...clip, durationSeconds: 600, moovAtEnd: true, sizeBytes: 200 * 1024 * 1024, sparse: true });
    const before = process.memoryUsage().rss;
    const probe = await probeMedia(path);
    expect(probe).toMatchObject({ kind: 'video', durationSeconds: 600, videoCodec: 'h264' });
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * 1024 * 1024);
  });
});

describe('probeMedia: other files', () => {
  it.each([
    ['empty', Buffer.alloc(0)],
    ['text', Buffer.from('hello, this is not media\n')],
    ['random', Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251))],
  ])('gives kind unknown for %s bytes', async (name, bytes) => {
    expect(await probeBytes(`${name}.png`, bytes)).toEqual({ contentType: '', kind: 'unknown', problem: 'unrecognized file format' });
  });

  it('names a recognized non-media type', async () => {
    const pdf = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n', 'latin1');
    expect(await probeBytes('doc.jpg', pdf)).toEqual({ contentType: 'application/pdf', kind: 'unknown', problem: 'application/pdf is not an image or a video' });
  });

  it('rejects when the file does not exist', async () => {
    const dir = await testdir();
    await expect(probeMedia(join(dir, 'missing.png'))).rejects.toThrow(/ENOENT/);
  });
});

/** An APP1 Exif segment holding one IFD entry: Orientation (0x0112) = `value`. */
function exifOrientation(value: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // first IFD offset
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x0112, 10);
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(value, 18);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}

