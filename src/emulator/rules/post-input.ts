import type { TargetInput } from '../../api/types.js';
import { validationFailed } from '../protocol/envelope.js';
import { type Violations, codePointLength, isPlainObject, isUuid, parseRfc3339, rejectUnknownFields } from '../protocol/validate.js';

export const MAX_CONTENT_CHARACTERS = 10000;
export const MAX_TARGETS = 20;
export const MAX_MEDIA_IDS = 10;

const POST_FIELDS = ['content', 'targets', 'mediaIds', 'scheduledAt'] as const;
const TARGET_FIELDS = ['socialAccountId', 'options', 'contentOverride'] as const;

/** A create or edit body that passed the shape rules; absent fields were not sent. */
export interface PostInput {
  content?: string;
  targets?: TargetInput[];
  mediaIds?: string[];
  /** Normalized to UTC; null clears the schedule. */
  scheduledAt?: string | null;
}

/**
 * Checks the shape of a POST /posts or PATCH /posts/{id} body and collects every violation:
 * types, unknown fields, content 10000 characters, targets 20, mediaIds 10, uuids, and
 * scheduledAt (RFC 3339 with Z or an offset, in the future). A create needs content, targets
 * and mediaIds; an edit needs at least one field. Violations are added to `violations`, so the
 * caller can add the checks against accounts and media before answering 400 with all of them.
 */
export function parsePostInput(body: unknown, mode: 'create' | 'edit', nowMs: number, violations: Violations): PostInput {
  if (!isPlainObject(body)) throw validationFailed(['body must be a JSON object']);
  rejectUnknownFields(body, POST_FIELDS, '', violations);
  if (mode === 'create') {
    for (const field of ['content', 'targets', 'mediaIds'] as const) {
      if (body[field] === undefined) violations.add(`${field} is required`);
    }
  } else if (!POST_FIELDS.some((field) => body[field] !== undefined)) {
    violations.add(`at least one of ${POST_FIELDS.join(', ')} must be provided`);
  }
  const input: PostInput = {};
  if (body.content !== undefined) input.content = checkText(body.content, 'content', violations);
  if (body.targets !== undefined) input.targets = checkTargets(body.targets, violations);
  if (body.mediaIds !== undefined) input.mediaIds = checkMediaIds(body.mediaIds, violations);
  if (body.scheduledAt !== undefined) input.scheduledAt = checkScheduledAt(body.scheduledAt, nowMs, violations);
  return input;
}

function checkText(value: unknown, name: string, violations: Violations): string {
  if (typeof value !== 'string') {
    violations.add(`${name} must be a string`);
    return '';
  }
  const length = codePointLength(value);
  if (length > MAX_CONTENT_CHARACTERS) violations.add(`${name} must be at most ${MAX_CONTENT_CHARACTERS} characters (got ${length})`);
  return value;
}

function checkTargets(value: unknown, violations: Violations): TargetInput[] {
  if (!Array.isArray(value)) {
    violations.add('targets must be an array');
    return [];
  }
  if (value.length > MAX_TARGETS) violations.add(`targets must have at most ${MAX_TARGETS} items (got ${value.length})`);
  const seen = new Set<string>();
  return value.map((item: unknown, i): TargetInput => {
    const where = `targets[${i}]`;
    if (!isPlainObject(item)) {
      violations.add(`${where} must be an object`);
      return { socialAccountId: '' };
    }
    rejectUnknownFields(item, TARGET_FIELDS, `${where}.`, violations);
    const target: TargetInput = { socialAccountId: String(item.socialAccountId ?? '') };
    if (!isUuid(item.socialAccountId)) violations.add(`${where}.socialAccountId must be a uuid`);
    else if (seen.has(item.socialAccountId.toLowerCase())) violations.add(`${where}.socialAccountId ${item.socialAccountId} appears more than once`);
    else seen.add(item.socialAccountId.toLowerCase());
    if (item.options !== undefined) {
      if (isPlainObject(item.options)) target.options = item.options;
      else violations.add(`${where}.options must be an object`);
    }
    if (item.contentOverride !== undefined) target.contentOverride = checkText(item.contentOverride, `${where}.contentOverride`, violations);
    return target;
  });
}

function checkMediaIds(value: unknown, violations: Violations): string[] {
  if (!Array.isArray(value)) {
    violations.add('mediaIds must be an array');
    return [];
  }
  if (value.length > MAX_MEDIA_IDS) violations.add(`mediaIds must have at most ${MAX_MEDIA_IDS} items (got ${value.length})`);
  const seen = new Set<string>();
  value.forEach((id: unknown, i) => {
    if (!isUuid(id)) violations.add(`mediaIds[${i}] must be a uuid`);
    else if (seen.has(id.toLowerCase())) violations.add(`mediaIds[${i}] ${id} appears more than once`);
    else seen.add(id.toLowerCase());
  });
  return value.filter(isUuid).map((id) => id.toLowerCase());
}

function checkScheduledAt(value: unknown, nowMs: number, violations: Violations): string | null {
  if (value === null) return null;
  const ms = typeof value === 'string' ? parseRfc3339(value) : null;
  if (ms === null) {
    violations.add('scheduledAt must be null or an RFC 3339 date-time with Z or a numeric offset (e.g. 2026-12-01T09:00:00+01:00)');
    return null;
  }
  if (ms <= nowMs) violations.add(`scheduledAt must be in the future (it is ${new Date(ms).toISOString()}, now is ${new Date(nowMs).toISOString()})`);
  return new Date(ms).toISOString();
}
