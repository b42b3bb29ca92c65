import { createHash } from 'node:crypto';
import stringify from 'safe-stable-stringify';
import { ErrorCodes } from '../../api/error-codes.js';
import type { ApiCall } from './context.js';
import { ApiError, type Reply } from '../protocol/envelope.js';
import type { IdempotencyOutcome } from '../store/model.js';

const MAX_KEY_LENGTH = 255;

/**
 * Runs a create under an Idempotency-Key, per project:
 * - same key and same payload (canonical JSON) → the remembered answer again (same post id);
 * - same key, different payload → 422 `idempotency_key_reused`;
 * - same key still being processed → 409 `idempotency_in_progress` with `Retry-After: 1`;
 * - only a create that happened (201) is remembered, for 24 hours of emulator time and only once
 *   it is durable in the journal; 5xx and 429 answers, and requests refused before anything was
 *   created (400, 403), leave the key unused, so a retry (or a corrected payload) runs again.
 */
export async function withIdempotency(call: ApiCall, payload: unknown, run: () => Promise<Reply>): Promise<Reply> {
  const header = call.headers['idempotency-key'];
  if (header === undefined) return run();
  const key = Array.isArray(header) ? header.join(',') : header;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError(400, ErrorCodes.validationFailed, [`Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters`]);
  }
  const { store, clock } = call.services;
  const projectId = call.project.id;
  const payloadHash = createHash('sha256').update(stringify(payload) ?? 'undefined').digest('hex');
  const existing = store.idempotencyEntry(projectId, key);
  if (existing?.state === 'in-progress') {
    throw new ApiError(409, ErrorCodes.idempotencyInProgress, 'a request with this Idempotency-Key is still being processed; retry later', { 'Retry-After': '1' });
  }
  if (existing) {
    if (existing.payloadHash !== payloadHash) {
      throw new ApiError(422, ErrorCodes.idempotencyKeyReused, 'this Idempotency-Key was already used with a different payload; use a new key for a new post');
    }
    return { status: existing.status, data: existing.data, headers: { 'Idempotent-Replayed': 'true' } };
  }
  const createdMs = clock.now();
  store.putIdempotency(projectId, key, { state: 'in-progress', payloadHash, createdMs });
  try {
    const reply = await run();
    const outcome: IdempotencyOutcome = { payloadHash, status: reply.status, data: reply.data, createdMs };
    store.journalIdempotency(projectId, key, outcome);
    await call.services.commit();
    // Still in progress for a repeat in the same hold of the store: its answer is not on disk yet.
    call.services.whenDurable(() => store.putIdempotency(projectId, key, { state: 'done', ...outcome }));
    return reply;
  } catch (error) {
    store.dropIdempotency(projectId, key);
    throw error;
  }
}
