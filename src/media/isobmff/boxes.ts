/**
 * Walks ISO-BMFF (MP4/MOV) boxes by their headers with positioned reads, so that a file of any
 * size costs a handful of small reads: payloads are read only for the few boxes we parse.
 */

/** Reads up to `length` bytes at `position`; shorter only at the end of the file. */
export type ReadAt = (position: number, length: number) => Promise<Buffer>;

/** Thrown inside the parser when the box structure is broken; the prober turns it into a `problem`. */
export class CorruptMediaError extends Error {}

export interface BoxHeader {
  type: string;
  start: number;
  /** First payload byte. */
  payloadStart: number;
  /** One past the last byte of the box. */
  end: number;
}

/** Stops a walk over a hostile file with millions of tiny boxes. */
const MAX_CHILDREN = 100_000;

export async function readBoxHeader(readAt: ReadAt, start: number, parentEnd: number): Promise<BoxHeader> {
  const bytes = await readAt(start, Math.min(16, parentEnd - start));
  if (bytes.length < 8) throw new CorruptMediaError(`the file ends inside a box header at byte ${start}`);
  const size32 = bytes.readUInt32BE(0);
  const type = bytes.toString('latin1', 4, 8);
  if (!/^[\x20-\x7e\xa9]{4}$/.test(type)) {
    throw new CorruptMediaError(`no valid box at byte ${start}`);
  }
  let size = size32;
  let headerSize = 8;
  if (size32 === 1) {
    if (bytes.length < 16) throw new CorruptMediaError(`the file ends inside the ${type} box header at byte ${start}`);
    const large = bytes.readBigUInt64BE(8);
    if (large > BigInt(Number.MAX_SAFE_INTEGER)) throw new CorruptMediaError(`the ${type} box at byte ${start} is impossibly large`);
    size = Number(large);
    headerSize = 16;
  } else if (size32 === 0) {
    size = parentEnd - start; // "extends to the end of the enclosing box (or file)"
  }
  if (size < headerSize) throw new CorruptMediaError(`the ${type} box at byte ${start} has an invalid size ${size}`);
  const end = start + size;
  if (end > parentEnd) {
    throw new CorruptMediaError(
      `the ${type} box at byte ${start} needs ${size} bytes but only ${parentEnd - start} remain (truncated file?)`,
    );
  }
  return { type, start, payloadStart: start + headerSize, end };
}

/** The boxes directly inside [start, end). Fewer than 8 trailing bytes are tolerated as padding. */
export async function* childBoxes(readAt: ReadAt, start: number, end: number): AsyncGenerator<BoxHeader> {
  let offset = start;
  let count = 0;
  while (end - offset >= 8) {
    if (++count > MAX_CHILDREN) throw new CorruptMediaError(`more than ${MAX_CHILDREN} boxes at one level`);
    const header = await readBoxHeader(readAt, offset, end);
    yield header;
    offset = header.end;
  }
}

/** The first child of `parent` with the given type, or undefined. */
export async function findChild(readAt: ReadAt, parent: BoxHeader, type: string): Promise<BoxHeader | undefined> {
  for await (const child of childBoxes(readAt, parent.payloadStart, parent.end)) {
    if (child.type === type) return child;
  }
  return undefined;
}

/** Up to `maxBytes` of a box's payload; throws when fewer than `minBytes` are there. */
export async function readPayload(readAt: ReadAt, box: BoxHeader, minBytes: number, maxBytes = minBytes): Promise<Buffer> {
  const length = Math.min(maxBytes, box.end - box.payloadStart);
  const payload = length > 0 ? await readAt(box.payloadStart, length) : Buffer.alloc(0);
  if (payload.length < minBytes) {
    throw new CorruptMediaError(`the ${box.type} box at byte ${box.start} is too short (${payload.length} of ${minBytes} bytes)`);
  }
  return payload;
}
