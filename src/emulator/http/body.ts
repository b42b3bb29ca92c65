import type { IncomingMessage } from 'node:http';
import { ErrorCodes } from '../../api/error-codes.js';
import { ApiError } from '../protocol/envelope.js';

/** The spec's JSON body limit: "over 100 KB gives 413". */
export const MAX_JSON_BODY_BYTES = 100 * 1024;

const tooLarge = (): ApiError =>
  new ApiError(413, ErrorCodes.payloadTooLarge, `JSON body is over ${MAX_JSON_BODY_BYTES} bytes (100 KB)`, {
    Connection: 'close',
  });

/**
 * Reads a request body, refusing it as soon as it passes the limit: a declared Content-Length is
 * refused before a byte is read, a chunked body the moment the running count passes the limit.
 * Parsing happens later, so an oversized body is never parsed.
 */
export async function readLimitedBody(req: IncomingMessage, limit = MAX_JSON_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > limit) {
    req.resume();
    throw tooLarge();
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let refused = false;
    const onData = (chunk: Buffer): void => {
      if (refused) return;
      total += chunk.length;
      if (total > limit) {
        // Keep draining (data is dropped) so the client can finish sending and read the 413.
        refused = true;
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => {
      if (!refused) resolve(Buffer.concat(chunks, total));
    });
    req.on('error', reject);
  });
}

/**
 * The document declares only `application/json` request bodies: a body declared as anything else
 * (or sent without a Content-Type) is 415, before it is parsed. `; charset=utf-8` and other
 * parameters are accepted; a request without a body needs no Content-Type.
 */
export function requireJsonContentType(contentType: string | undefined, raw: Buffer): void {
  if (contentType === undefined && raw.length === 0) return;
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType === 'application/json') return;
  const found = contentType === undefined ? 'a body without a Content-Type' : `Content-Type ${contentType}`;
  throw new ApiError(415, ErrorCodes.unsupportedMediaType, `request bodies must be JSON with Content-Type: application/json (got ${found})`);
}

/** Parses a JSON body; an empty body reads as `undefined` so each route decides if that is allowed. */
export function parseJsonBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ApiError(400, ErrorCodes.invalidJson, `body is not valid JSON: ${reason}`);
  }
}
