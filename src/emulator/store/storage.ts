import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { constants, createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, mkdtemp, open, rename, rm, stat, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Thrown while storing when a body passes its allowed size. */
export class ObjectTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`object is larger than the ${maxBytes} bytes this URL allows`);
  }
}

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/** The encoded request path of an object, as it appears in URLs and in signatures. */
export const storagePath = (objectKey: string): string => `/_storage/${objectKey.split('/').map(encodeURIComponent).join('/')}`;

/**
 * The emulator's object storage: files under a root directory (`<data>/objects`, or a private
 * temp dir when in memory), written and read as streams so no object is ever held in memory.
 * Presigned URLs carry `expires` (unix seconds, emulator time) and `sig`, an HMAC-SHA256 with a
 * per-emulator secret over method, path and expiry: bound to one object, one method, one expiry.
 */
export class ObjectStorage {
  private readonly secret = randomBytes(32);

  private constructor(
    readonly root: string,
    private readonly temporary: boolean,
  ) {}

  static async open(options: { dataDir?: string }): Promise<ObjectStorage> {
    if (options.dataDir) {
      const root = resolve(options.dataDir, 'objects');
      await mkdir(root, { recursive: true });
      return new ObjectStorage(root, false);
    }
    return new ObjectStorage(await mkdtemp(join(tmpdir(), 'postsync-emulator-')), true);
  }

  /** Path and query of a presigned URL; the caller puts the origin in front. */
  presign(method: string, objectKey: string, expiresMs: number): string {
    const path = storagePath(objectKey);
    const expires = Math.floor(expiresMs / 1000);
    return `${path}?expires=${expires}&sig=${this.sign(method, path, expires)}`;
  }

  verify(method: string, path: string, query: URLSearchParams, nowMs: number): SignatureCheck {
    const expires = query.get('expires');
    const sig = query.get('sig');
    if (!expires || !/^\d+$/.test(expires) || !sig) return 'invalid';
    const expected = Buffer.from(this.sign(method, path, Number(expires)));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return Number(expires) * 1000 < nowMs ? 'expired' : 'valid';
  }

  /** Streams `source` into the object; replaces it atomically once fully written. */
  async write(objectKey: string, source: Readable, options: { maxBytes: number; durable: boolean }): Promise<{ size: number; etag: string }> {
    const target = this.fileOf(objectKey);
    await mkdir(dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const stored = await streamInto(source, createWriteStream(temp), options.maxBytes);
      if (options.durable) await fsyncFile(temp);
      await rename(temp, target);
      return stored;
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  /**
   * Streams `source` into the object at byte `offset`, creating it sparse if needed: the parts of
   * a multipart upload land where they belong, in any order and in parallel, so completing the
   * upload needs no copy. Bytes of a failed write stay behind but are overwritten by its retry,
   * and only recorded parts count.
   */
  async writeAt(objectKey: string, offset: number, source: Readable, options: { maxBytes: number; durable: boolean }): Promise<{ size: number; etag: string }> {
    const target = this.fileOf(objectKey);
    await mkdir(dirname(target), { recursive: true });
    // Opened without O_TRUNC (createWriteStream's flags must be a string): the other parts stay.
    const handle = await open(target, constants.O_WRONLY | constants.O_CREAT, 0o644);
    const stored = await streamInto(source, handle.createWriteStream({ start: offset }), options.maxBytes);
    if (options.durable) await fsyncFile(target);
    return stored;
  }

  /** Makes a fully written staging object the object: cut to its exact size, then renamed (no copy). */
  async promote(stagingKey: string, objectKey: string, options: { sizeBytes: number; durable: boolean }): Promise<void> {
    const staging = this.fileOf(stagingKey);
    await truncate(staging, options.sizeBytes);
    if (options.durable) await fsyncFile(staging);
    const target = this.fileOf(objectKey);
    await mkdir(dirname(target), { recursive: true });
    await rename(staging, target);
  }

  /** Size of a stored object, or null when it does not exist. */
  async size(objectKey: string): Promise<number | null> {
    try {
      return (await stat(this.fileOf(objectKey))).size;
    } catch {
      return null;
    }
  }

  read(objectKey: string, range?: { start: number; end: number }): ReadStream {
    return createReadStream(this.fileOf(objectKey), range);
  }

  /** Reads at most `length` bytes from the start of an object (for magic bytes and headers). */
  async head(objectKey: string, length: number): Promise<Buffer> {
    const handle = await open(this.fileOf(objectKey), 'r');
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  /** Removes an object or a whole prefix (a directory). */
  async remove(objectKeyOrPrefix: string): Promise<void> {
    await rm(this.fileOf(objectKeyOrPrefix), { recursive: true, force: true });
  }

  fileOf(objectKey: string): string {
    const file = resolve(this.root, objectKey);
    if (!file.startsWith(this.root + sep)) throw new Error(`object key escapes the storage root: ${objectKey}`);
    return file;
  }

  /** Deletes every object (reset), or the whole temp root on close. */
  async clear(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
    await mkdir(this.root, { recursive: true });
  }

  async close(): Promise<void> {
    if (this.temporary) await rm(this.root, { recursive: true, force: true });
  }

  private sign(method: string, path: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${method}\n${path}\n${expires}`).digest('base64url');
  }
}

/** Pipes `source` to `sink`, refusing more than `maxBytes`; returns the size and the MD5 ETag. */
async function streamInto(source: Readable, sink: Writable, maxBytes: number): Promise<{ size: number; etag: string }> {
  const md5 = createHash('md5');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new ObjectTooLargeError(maxBytes));
      md5.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(source, meter, sink);
  return { size, etag: `"${md5.digest('hex')}"` };
}

async function fsyncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
