import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeMp4, writeMp4File, type Mp4Options } from '../helpers/media-generators/index.js';
import { box, fields, fullBox } from '../helpers/media-generators/iso-boxes.js';
import { childBoxes, CorruptMediaError, type ReadAt } from '../../src/media/isobmff/boxes.js';
import { readMovie } from '../../src/media/isobmff/movie.js';
import { testdir } from '../helpers/testdir.js';

const clip: Mp4Options = { durationSeconds: 12, videoCodec: 'avc1', audioCodec: 'mp4a', width: 640, height: 360 };

function bufferReader(bytes: Buffer): ReadAt {
  return async (position, length) => bytes.subarray(position, position + length);
}

const movieOf = (bytes: Buffer) => readMovie(bufferReader(bytes), bytes.length);

/** Offset of the first box of `type` (its size field). */
const boxAt = (bytes: Buffer, type: string): number => bytes.indexOf(type, 0, 'latin1') - 4;

/** mvhd and mdhd version 0: the 32-bit duration sits 24 bytes into the box. */
function setDuration(bytes: Buffer, type: 'mvhd' | 'mdhd', value: number): Buffer {
  const copy = Buffer.from(bytes);
  copy.writeUInt32BE(value, boxAt(copy, type) + 24);
  return copy;
}

describe('readMovie', () => {
  it('reads what the generator wrote', async () => {
    expect(await movieOf(makeMp4(clip))).toEqual({
      durationSeconds: 12,
      video: { fourcc: 'avc1', width: 640, height: 360 },
      audio: { fourcc: 'mp4a' },
    });
  });

  it('falls back to the video track duration when mvhd has none or "unknown" (all ones)', async () => {
    for (const movieDuration of [0, 0xffffffff]) {
      const movie = await movieOf(setDuration(makeMp4(clip), 'mvhd', movieDuration));
      expect(movie.durationSeconds).toBe(12); // from mdhd: 12 * 90000 at timescale 90000
    }
  });

  it('takes a fragmented movie duration from mvex/mehd', async () => {
    const file = setDuration(makeMp4({ ...clip, moovAtEnd: true }), 'mvhd', 0);
    const mvex = box('mvex', fullBox('mehd', 0, 0, fields([33_500, 4])));
    const moovStart = boxAt(file, 'moov');
    file.writeUInt32BE(file.readUInt32BE(moovStart) + mvex.length, moovStart);
    expect((await movieOf(Buffer.concat([file, mvex]))).durationSeconds).toBe(33.5);
  });

  it('leaves the duration out when no box gives one', async () => {
    const file = setDuration(setDuration(makeMp4({ ...clip, audioCodec: null }), 'mvhd', 0), 'mdhd', 0);
    expect(await movieOf(file)).toEqual({ video: { fourcc: 'avc1', width: 640, height: 360 } });
  });

  it('uses the sample entry size when tkhd has none', async () => {
    const file = Buffer.from(makeMp4({ ...clip, audioCodec: null }));
    const tkhd = boxAt(file, 'tkhd');
    file.fill(0, tkhd + 8 + 76, tkhd + 8 + 84); // width and height (16.16) of a version-0 tkhd
    expect((await movieOf(file)).video).toEqual({ fourcc: 'avc1', width: 640, height: 360 });
  });

  it('accepts a last box of size 0 ("to the end of the file") and short trailing padding', async () => {
    const file = Buffer.from(makeMp4({ ...clip, sizeBytes: 4000 }));
    file.writeUInt32BE(0, boxAt(file, 'mdat'));
    expect((await movieOf(file)).durationSeconds).toBe(12);
    expect((await movieOf(Buffer.concat([makeMp4(clip), Buffer.alloc(5)]))).durationSeconds).toBe(12);
  });

  it('throws CorruptMediaError for impossible boxes', async () => {
    const file = makeMp4(clip);
    const garbage = Buffer.from(file);
    garbage.write('\x00\x01\x02\x03', boxAt(garbage, 'moov') + 4, 'latin1');
    await expect(movieOf(garbage)).rejects.toThrow(CorruptMediaError);

    const huge = Buffer.from(file);
    const moov = boxAt(huge, 'moov');
    huge.writeUInt32BE(1, moov);
    huge.writeBigUInt64BE(2n ** 60n, moov + 8);
    await expect(movieOf(huge)).rejects.toThrow(/impossibly large/);

    const tooShort = Buffer.from(file);
    tooShort.writeUInt32BE(12, boxAt(tooShort, 'mvhd'));
    await expect(movieOf(tooShort)).rejects.toThrow(CorruptMediaError);
  });

  it('walks children without reading payloads', async () => {
    const file = makeMp4(clip);
    const types: string[] = [];
    for await (const child of childBoxes(bufferReader(file), 0, file.length)) types.push(child.type);
    expect(types).toEqual(['ftyp', 'moov', 'mdat']);
  });

  it('reads a few KB of a 200 MB file whose moov is at the end', async () => {
    const path = join(await testdir(), 'big.mp4');
    const size = 200 * 1024 * 1024;
    await writeMp4File(path, { ...clip, moovAtEnd: true, sizeBytes: size, sparse: true });
    const handle = await open(path);
    let bytesRead = 0;
    try {
      const movie = await readMovie(async (position, length) => {
        const buffer = Buffer.alloc(length);
        const read = await handle.read(buffer, 0, length, position);
        bytesRead += read.bytesRead;
        return buffer.subarray(0, read.bytesRead);
      }, size);
      expect(movie.durationSeconds).toBe(12);
    } finally {
      await handle.close();
    }
    expect(bytesRead).toBeLessThan(4096);
  });
});
