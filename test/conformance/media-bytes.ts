/**
 * Real media bytes for uploads: a 1×1 PNG, and MP4 files of any size (ftyp + moov/mvhd with a
 * duration + an mdat box filling the rest), built here rather than taken from the emulator.
 */

export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

function box(type: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + payload.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, payload]);
}

function movieHeader(durationSeconds: number): Buffer {
  const payload = Buffer.alloc(100);
  const timescale = 1000;
  payload.writeUInt32BE(timescale, 12);
  payload.writeUInt32BE(durationSeconds * timescale, 16);
  payload.writeUInt32BE(0x00010000, 20); // rate 1.0
  payload.writeUInt16BE(0x0100, 24); // volume 1.0
  payload.writeUInt32BE(0x00010000, 36); // identity matrix a
  payload.writeUInt32BE(0x00010000, 52); // identity matrix d
  payload.writeUInt32BE(0x40000000, 68); // identity matrix w
  payload.writeUInt32BE(2, 96); // next track id
  return box('mvhd', payload);
}

/** An MP4 of exactly `sizeBytes` bytes lasting `durationSeconds`. */
export function mp4Bytes(sizeBytes: number, durationSeconds = 10): Buffer {
  const ftyp = box('ftyp', Buffer.concat([Buffer.from('isom', 'latin1'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2mp41', 'latin1')]));
  const moov = box('moov', movieHeader(durationSeconds));
  const mdatPayload = sizeBytes - ftyp.length - moov.length - 8;
  if (mdatPayload < 0) throw new Error(`an MP4 needs at least ${ftyp.length + moov.length + 8} bytes`);
  return Buffer.concat([ftyp, moov, box('mdat', Buffer.alloc(mdatPayload, 0x5a))]);
}
