import { LsbBitWriter } from './lsb-bit-writer.js';
import { assertDimension, DEFAULT_RGB, type SolidImageOptions } from '../../../src/media/solid-png.js';

/**
 * A real lossless WebP (RIFF + VP8L) of one colour. Each of the five prefix codes is a "simple
 * code" with a single symbol, so every pixel decodes from zero bits: the file is ~40 bytes at any size.
 */
export function makeWebp(options: SolidImageOptions): Buffer {
  const { width, height } = options;
  assertDimension('width', width, 16384);
  assertDimension('height', height, 16384);
  const { r, g, b } = options.rgb ?? DEFAULT_RGB;
  const bits = new LsbBitWriter();
  bits.write(0x2f, 8); // VP8L signature
  bits.write(width - 1, 14);
  bits.write(height - 1, 14);
  bits.write(0, 1); // alpha unused
  bits.write(0, 3); // version 0
  bits.write(0, 1); // no transform
  bits.write(0, 1); // no colour cache
  bits.write(0, 1); // no meta prefix codes
  for (const symbol of [g, r, b, 255]) singleSymbolCode(bits, symbol, 8);
  singleSymbolCode(bits, 0, 1); // distance code, never used
  const vp8l = bits.finish();
  const padded = vp8l.length % 2 === 1 ? Buffer.concat([vp8l, Buffer.alloc(1)]) : vp8l;
  const chunkHeader = Buffer.alloc(8);
  chunkHeader.write('VP8L', 0, 'latin1');
  chunkHeader.writeUInt32LE(vp8l.length, 4);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + chunkHeader.length + padded.length, 4);
  riff.write('WEBP', 8, 'latin1');
  return Buffer.concat([riff, chunkHeader, padded]);
}

function singleSymbolCode(bits: LsbBitWriter, symbol: number, symbolBits: 1 | 8): void {
  bits.write(1, 1); // simple code
  bits.write(0, 1); // one symbol
  bits.write(symbolBits === 8 ? 1 : 0, 1);
  bits.write(symbol, symbolBits);
}
