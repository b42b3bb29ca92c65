import { LsbBitWriter } from './lsb-bit-writer.js';
import { assertDimension, DEFAULT_RGB, type SolidImageOptions } from '../../../src/media/solid-png.js';

const MIN_CODE_SIZE = 2; // the smallest GIF allows; our palette has 2 entries
const MAX_CODES = 4096;

/** A real GIF89a, one frame of one colour, LZW-compressed (a flat frame packs to a few KB). */
export function makeGif(options: SolidImageOptions): Buffer {
  const { width, height } = options;
  assertDimension('width', width, 65535);
  assertDimension('height', height, 65535);
  const { r, g, b } = options.rgb ?? DEFAULT_RGB;
  const header = Buffer.alloc(13);
  header.write('GIF89a', 0, 'latin1');
  header.writeUInt16LE(width, 6);
  header.writeUInt16LE(height, 8);
  header[10] = 0xf0; // global colour table, 8-bit colour resolution, 2 entries
  const descriptor = Buffer.alloc(10);
  descriptor[0] = 0x2c;
  descriptor.writeUInt16LE(width, 5);
  descriptor.writeUInt16LE(height, 7);
  return Buffer.concat([
    header,
    Buffer.from([r, g, b, 0, 0, 0]),
    descriptor,
    Buffer.from([MIN_CODE_SIZE]),
    subBlocks(lzwEncode(width * height)),
    Buffer.from([0x3b]),
  ]);
}

/**
 * GIF-flavoured LZW (variable code size up to 12 bits) of `pixelCount` pixels of palette index 0.
 * With a single pixel value, a string is identified by its prefix code alone, so the dictionary
 * maps "prefix code" to "code of prefix + one more pixel".
 */
function lzwEncode(pixelCount: number): Buffer {
  const clearCode = 1 << MIN_CODE_SIZE;
  const endCode = clearCode + 1;
  const bits = new LsbBitWriter();
  let dictionary = new Map<number, number>();
  let next = endCode + 1;
  let codeSize = MIN_CODE_SIZE + 1;
  // The code size grows one code after the table passes it: the decoder adds entries one step late.
  const emit = (code: number): void => {
    bits.write(code, codeSize);
    if (next > (1 << codeSize) - 1 && codeSize < 12) codeSize++;
  };
  emit(clearCode);
  let prefix = 0;
  for (let i = 1; i < pixelCount; i++) {
    const known = dictionary.get(prefix);
    if (known !== undefined) {
      prefix = known;
      continue;
    }
    emit(prefix);
    if (next < MAX_CODES) {
      dictionary.set(prefix, next++);
    } else {
      emit(clearCode);
      dictionary = new Map();
      next = endCode + 1;
      codeSize = MIN_CODE_SIZE + 1;
    }
    prefix = 0;
  }
  emit(prefix);
  emit(endCode);
  return bits.finish();
}

function subBlocks(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += 255) {
    const piece = data.subarray(offset, offset + 255);
    parts.push(Buffer.from([piece.length]), piece);
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}
