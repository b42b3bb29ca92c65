import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inflateSync, crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { makeGif, makeJpeg, makeMp4, makePng, makeWebp, writeMp4File, type Mp4Options } from '../helpers/media-generators/index.js';
import { testdir } from '../helpers/testdir.js';

const clip: Mp4Options = { durationSeconds: 15, videoCodec: 'avc1', audioCodec: 'mp4a', width: 1080, height: 1920 };

/** PNG chunks as [type, data], checking each CRC. */
function pngChunks(png: Buffer): Array<[string, Buffer]> {
  const chunks: Array<[string, Buffer]> = [];
  for (let offset = 8; offset < png.length; ) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    expect(png.readUInt32BE(offset + 8 + length)).toBe(crc32(png.subarray(offset + 4, offset + 8 + length)));
    chunks.push([type, data]);
    offset += 12 + length;
  }
  return chunks;
}

describe('image generators', () => {
  it('makes a PNG whose scanlines inflate to the raw image', () => {
    const chunks = pngChunks(makePng({ width: 3, height: 2, rgb: { r: 1, g: 2, b: 3 } }));
    expect(chunks.map(([type]) => type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    const row = [0, 1, 2, 3, 1, 2, 3, 1, 2, 3];
    expect([...inflateSync(chunks[1]![1])]).toEqual([...row, ...row]);
  });

  it('makes a baseline JPEG with SOF0 carrying the size, ending in EOI', () => {
    const jpeg = makeJpeg({ width: 1000, height: 700 });
    expect([...jpeg.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect([...jpeg.subarray(-2)]).toEqual([0xff, 0xd9]);
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    expect([jpeg.readUInt16BE(sof + 5), jpeg.readUInt16BE(sof + 7)]).toEqual([700, 1000]);
    // Flat blocks cost two bits each per component: a 1080x1080 image stays well under 100 KB.
    expect(makeJpeg({ width: 1080, height: 1080 }).length).toBeLessThan(20_000);
  });

  it('makes a GIF and a WebP of the requested size', () => {
    const gif = makeGif({ width: 300, height: 200 });
    expect(gif.toString('latin1', 0, 6)).toBe('GIF89a');
    expect([gif.readUInt16LE(6), gif.readUInt16LE(8)]).toEqual([300, 200]);
    expect(gif[gif.length - 1]).toBe(0x3b);
    const webp = makeWebp({ width: 300, height: 200 });
    expect(webp.toString('latin1', 0, 4) + webp.toString('latin1', 8, 16)).toBe('RIFFWEBPVP8L');
    expect(webp.readUInt32LE(4)).toBe(webp.length - 8);
  });

  it('refuses sizes the format cannot hold', () => {
    expect(() => makeWebp({ width: 20000, height: 1 })).toThrow(RangeError);
    expect(() => makePng({ width: 0, height: 1 })).toThrow(RangeError);
    expect(() => makeJpeg({ width: 1.5, height: 1 })).toThrow(RangeError);
  });
});

describe('MP4 generator', () => {
  it('pads the file to sizeBytes exactly, with top-level ftyp, moov and mdat', () => {
    const file = makeMp4({ ...clip, sizeBytes: 200_000 });
    expect(file.length).toBe(200_000);
    const types: string[] = [];
    for (let offset = 0; offset < file.length; offset += file.readUInt32BE(offset)) types.push(file.toString('latin1', offset + 4, offset + 8));
    expect(types).toEqual(['ftyp', 'moov', 'mdat']);
    expect(() => makeMp4({ ...clip, sizeBytes: 100 })).toThrow(RangeError);
  });

  it('writes the same bytes to disk, streamed or sparse', async () => {
    const dir = await testdir();
    for (const options of [
      { ...clip, sizeBytes: 3 * 1024 * 1024 + 17, moovAtEnd: true },
      { ...clip, sizeBytes: 1_000_000, use64Bit: true },
      { ...clip, audioCodec: null, brand: 'qt' as const },
    ]) {
      for (const sparse of [false, true]) {
        const path = join(dir, `clip-${sparse}.mp4`);
        await writeMp4File(path, { ...options, sparse });
        expect((await readFile(path)).equals(makeMp4(options))).toBe(true);
      }
    }
  });
});
