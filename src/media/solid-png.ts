import { crc32, deflateSync } from 'node:zlib';

/** A colour as 0..255 channels. */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export interface SolidImageOptions {
  width: number;
  height: number;
  /** Fill colour; default a mid grey. */
  rgb?: Rgb;
}

export const DEFAULT_RGB: Rgb = { r: 128, g: 128, b: 128 };

/** Throws a RangeError unless `value` is an integer in [1, max]: generators only make real files. */
export function assertDimension(name: string, value: number, max: number): void {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new RangeError(`${name} must be an integer from 1 to ${max}, got ${value}`);
  }
}

function chunk(type: string, data: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(data.length, 0);
  header.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([header.subarray(4), data])), 0);
  return Buffer.concat([header, data, crc]);
}

/** A valid 8-bit RGB PNG filled with one colour (raw scanlines, filter 0, zlib-deflated). */
export function makePng(options: SolidImageOptions): Buffer {
  const { width, height } = options;
  assertDimension('width', width, 0x7fffffff);
  assertDimension('height', height, 0x7fffffff);
  const { r, g, b } = options.rgb ?? DEFAULT_RGB;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  // compression, filter and interlace methods stay 0
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([r, g, b], 1 + x * 3);
  const raw = Buffer.alloc(row.length * height);
  for (let y = 0; y < height; y++) row.copy(raw, y * row.length);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
