import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, mkdtemp, open, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
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
    const md5 = createHash('md5');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > options.maxBytes) return done(new ObjectTooLargeError(options.maxBytes));
        md5.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(source, meter, createWriteStream(temp));
      if (options.durable) await fsyncFile(temp);
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return { size, etag: `"${md5.digest('hex')}"` };
  }

  /** Concatenates parts, in the order given, into one object; then removes the parts. */
  async assemble(objectKey: string, partKeys: readonly string[], options: { durable: boolean }): Promise<number> {
    const target = this.fileOf(objectKey);
    await mkdir(dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    const out = await open(temp, 'w');
    try {
      // Part by part, chunk by chunk: memory stays at one read buffer whatever the object size.
      for (const key of partKeys) {
        for await (const chunk of createReadStream(this.fileOf(key)) as AsyncIterable<Buffer>) await out.write(chunk);
      }
      if (options.durable) await out.sync();
    } catch (error) {
      await out.close();
      await rm(temp, { force: true });
      throw error;
    }
    await out.close();
    await rename(temp, target);
    await Promise.all(partKeys.map((key) => rm(this.fileOf(key), { force: true })));
    return (await stat(target)).size;
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

async function fsyncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
