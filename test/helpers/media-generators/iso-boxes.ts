/** Writers for the ISO-BMFF (MP4/MOV) boxes the MP4 generator emits. Big-endian throughout. */

export function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

/** A box whose size is written as a 64-bit `largesize` (32-bit size field set to 1). */
export function largeBox(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  return Buffer.concat([largeBoxHeader(type, body.length), body]);
}

export function largeBoxHeader(type: string, payloadBytes: number): Buffer {
  const header = Buffer.alloc(16);
  header.writeUInt32BE(1, 0);
  header.write(type, 4, 'latin1');
  header.writeBigUInt64BE(BigInt(16 + payloadBytes), 8);
  return header;
}

export function fullBox(type: string, version: number, flags: number, ...payload: Buffer[]): Buffer {
  const versionAndFlags = Buffer.alloc(4);
  versionAndFlags.writeUInt32BE(((version & 0xff) << 24) | (flags & 0xffffff), 0);
  return box(type, versionAndFlags, ...payload);
}

/** Concatenates big-endian fields; `bigint` entries are 64-bit, numbers use the given byte width. */
export function fields(...values: Array<[number, 1 | 2 | 4] | bigint | string | Buffer>): Buffer {
  return Buffer.concat(
    values.map((value) => {
      if (typeof value === 'bigint') {
        const out = Buffer.alloc(8);
        out.writeBigUInt64BE(value, 0);
        return out;
      }
      if (typeof value === 'string') return Buffer.from(value, 'latin1');
      if (Buffer.isBuffer(value)) return value;
      const [number, width] = value;
      const out = Buffer.alloc(width);
      out.writeUIntBE(number, 0, width);
      return out;
    }),
  );
}

/** A (version 0 or 1) time field group: 32-bit values for version 0, 64-bit for version 1. */
export function timeField(version: 0 | 1, value: number): Buffer {
  return version === 1 ? fields(BigInt(value)) : fields([value, 4]);
}

/** The 3x3 display matrix of mvhd/tkhd (16.16 fixed point, last column 2.30). */
export function displayMatrix(rotationDegrees: 0 | 90 | 180 | 270): Buffer {
  const one = 0x10000;
  const rotations: Record<typeof rotationDegrees, [number, number, number, number]> = {
    0: [one, 0, 0, one],
    90: [0, one, -one, 0],
    180: [-one, 0, 0, -one],
    270: [0, -one, one, 0],
  };
  const [a, b, c, d] = rotations[rotationDegrees];
  const out = Buffer.alloc(36);
  [a, b, 0, c, d, 0, 0, 0, 0x40000000].forEach((value, index) => out.writeInt32BE(value, index * 4));
  return out;
}

/** `und` in the packed ISO-639-2/T form of mdhd: three 5-bit letters offset by 0x60. */
export const LANGUAGE_UNDETERMINED = (21 << 10) | (14 << 5) | 4;
