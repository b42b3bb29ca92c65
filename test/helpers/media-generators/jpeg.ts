import { assertDimension, DEFAULT_RGB, type SolidImageOptions } from '../../../src/media/solid-png.js';

/**
 * A real baseline JPEG (SOF0, YCbCr 4:4:4, quantizer 1) filled with one colour. A flat block has
 * only a DC coefficient, so every block after the first of each component codes as "DC diff 0,
 * EOB": two bits. Decoders (libjpeg, browsers) read it like any camera JPEG.
 */
export function makeJpeg(options: SolidImageOptions): Buffer {
  const { width, height } = options;
  assertDimension('width', width, 65535);
  assertDimension('height', height, 65535);
  const components = toYCbCr(options.rgb ?? DEFAULT_RGB);
  const firstDcs = components.map((value) => 8 * (value - 128)); // FDCT DC of a flat block, Q = 1
  const dcTable = huffmanTable([0, ...firstDcs.map(category)]);
  const acTable = huffmanTable([0x00]); // only EOB
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);

  const bits = new MsbBitWriter();
  for (let block = 0; block < blocks; block++) {
    for (const dc of firstDcs) {
      const diff = block === 0 ? dc : 0;
      const size = category(diff);
      bits.write(dcTable.codes.get(size)!);
      if (size > 0) bits.write({ code: diff > 0 ? diff : diff + (1 << size) - 1, length: size });
      bits.write(acTable.codes.get(0x00)!);
    }
  }

  const sof = [8, height >> 8, height & 255, width >> 8, width & 255, 3];
  const sos = [3];
  for (let id = 1; id <= 3; id++) {
    sof.push(id, 0x11, 0);
    sos.push(id, 0x00);
  }
  sos.push(0, 63, 0);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, [...Buffer.from('JFIF\0', 'latin1'), 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    segment(0xdb, [0, ...new Array<number>(64).fill(1)]),
    segment(0xc0, sof),
    segment(0xc4, [0x00, ...dcTable.segment, 0x10, ...acTable.segment]),
    segment(0xda, sos),
    bits.finish(),
    Buffer.from([0xff, 0xd9]),
  ]);
}

function toYCbCr({ r, g, b }: { r: number; g: number; b: number }): number[] {
  const clamp = (v: number): number => Math.min(255, Math.max(0, Math.round(v)));
  return [
    clamp(0.299 * r + 0.587 * g + 0.114 * b),
    clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b),
    clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b),
  ];
}

/** JPEG magnitude category: the bit length of |value|. */
function category(value: number): number {
  return value === 0 ? 0 : Math.floor(Math.log2(Math.abs(value))) + 1;
}

interface Code {
  code: number;
  length: number;
}

/** Canonical table giving the i-th distinct symbol a code of length i + 1 (0, 10, 110, ...). */
function huffmanTable(symbols: number[]): { codes: Map<number, Code>; segment: number[] } {
  const distinct = [...new Set(symbols)];
  const counts = new Array<number>(16).fill(0);
  const codes = new Map<number, Code>();
  let code = 0;
  distinct.forEach((symbol, index) => {
    counts[index] = 1;
    codes.set(symbol, { code, length: index + 1 });
    code = (code + 1) << 1;
  });
  return { codes, segment: [...counts, ...distinct] };
}

function segment(marker: number, payload: number[]): Buffer {
  const length = payload.length + 2;
  return Buffer.from([0xff, marker, length >> 8, length & 255, ...payload]);
}

/** Entropy-coded data: MSB first, 0xFF bytes stuffed with 0x00, final byte padded with 1 bits. */
class MsbBitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private used = 0;

  write({ code, length }: Code): void {
    for (let bit = length - 1; bit >= 0; bit--) {
      this.current = (this.current << 1) | ((code >> bit) & 1);
      if (++this.used === 8) this.flushByte();
    }
  }

  finish(): Buffer {
    if (this.used > 0) {
      this.current = (this.current << (8 - this.used)) | ((1 << (8 - this.used)) - 1);
      this.flushByte();
    }
    return Buffer.from(this.bytes);
  }

  private flushByte(): void {
    this.bytes.push(this.current);
    if (this.current === 0xff) this.bytes.push(0x00);
    this.current = 0;
    this.used = 0;
  }
}
