import { createHash } from 'node:crypto';
import type { CreatePostBody, CreateUploadBody } from '../api/types.js';
import { canonicalJson, sha256Hex } from './hash.js';

export interface IdempotencyKeyInput {
  /** State section id of the remote (see `targetId`), so two remotes never share a key. */
  targetId: string;
  /**
   * The calendar that creates (`calendarIdentity`), so two calendars of one repository never share a
   * key: a create of one would otherwise get the other's post back, and own it.
   */
  calendar: string;
  /** The post key, or `media:<sha256>:<attempt>` for an upload start. */
  postKey: string;
  payload: CreatePostBody | CreateUploadBody;
}

/**
 * The Idempotency-Key of a create (a post, or an upload start): `psync-` + base64url(sha256(canonical [targetId, calendar,
 * postKey, sha256(canonical payload)])). A pending create keeps the key it was sent with. Deterministic, so a resent pending create carries the same key
 * and gets the original post back; any payload change gives a new key, so the service never
 * sees one key with two payloads.
 */
export function idempotencyKey({ targetId, calendar, postKey, payload }: IdempotencyKeyInput): string {
  const payloadHash = sha256Hex(canonicalJson(payload));
  const digest = createHash('sha256')
    .update(canonicalJson([targetId, calendar, postKey, payloadHash]), 'utf8')
    .digest('base64url');
  return `psync-${digest}`;
}
