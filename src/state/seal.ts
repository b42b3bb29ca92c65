import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { canonicalJson, sha256Hex } from './hash.js';
import type { JournalField, MediaRecord, PendingCreate, PendingUpload, PostRecord, ProjectState, UnconfirmedRecords } from './types.js';

/** The record kinds of a state section; each record carries a `seal`. */
export type SealedKind = JournalField;

type SealedRecord = PostRecord | PendingCreate | MediaRecord | PendingUpload;

/** Whom a seal is for: the API key it is keyed by, the target and the calendar it was written in. */
export interface SealScope {
  apiKey: string;
  /** The state section id (`targetId`). */
  targetId: string;
  /** The calendar's identity (`calendarIdentity`). */
  calendar: string;
  /**
   * False for a key that cannot write posts (the read-only key of plan and health jobs): it never
   * sealed a record, so it cannot tell the records an apply sealed from others, and checks none
   * (`unconfirmedRecords` finds none). Only what reads is planned with it; apply, which acts on the
   * records, checks them with the key that wrote them. Default true.
   */
  checks?: boolean;
}

/**
 * The seal of a state record: HMAC-SHA256, keyed by a key derived from the API key, over the
 * target, the calendar, the record's kind and key, and what the record points at on the remote
 * (a post id; a pending create's Idempotency-Key and payload; a media id). Only someone holding
 * the API key can seal a record, and a seal holds for that record only: a record copied from
 * another calendar or target, or re-pointed at another remote object, no longer matches it. What a
 * record says about the past (hashes, times, `reread`, `final`) is not sealed: it never decides
 * which remote object is written.
 */
export class StateSeal {
  readonly targetId: string;
  readonly calendar: string;
  /** Whether records are checked against this seal at all (SealScope.checks). */
  readonly checks: boolean;
  readonly #key: Buffer;

  constructor(scope: SealScope) {
    this.targetId = scope.targetId;
    this.calendar = scope.calendar;
    this.checks = scope.checks ?? true;
    this.#key = createHmac('sha256', scope.apiKey).update('postsync state seal v1').digest();
  }

  /** The seal of `record` as `kind` `key` of this target and calendar. */
  of(kind: SealedKind, key: string, record: SealedRecord): string {
    // Strings only, no object: JSON.stringify writes this as canonicalJson does, without looking for keys to sort.
    const subject = JSON.stringify([this.targetId, this.calendar, kind, key, pointsAt(kind, record)]);
    return createHmac('sha256', this.#key).update(subject, 'utf8').digest('base64url');
  }

  /** `record` with its seal. */
  sealed<T extends SealedRecord>(kind: SealedKind, key: string, record: T): T {
    return { ...record, seal: this.of(kind, key, record) };
  }

  /** Whether the record carries the seal this key gives it here. */
  confirms(kind: SealedKind, key: string, record: SealedRecord): boolean {
    if (record.seal === undefined) return false;
    const expected = Buffer.from(this.of(kind, key, record));
    const found = Buffer.from(record.seal);
    return expected.length === found.length && timingSafeEqual(expected, found);
  }
}

/** What a record of `kind` points at on the remote: the part of it a seal binds. */
function pointsAt(kind: SealedKind, record: SealedRecord): string | [string, string] {
  if (kind === 'pending') {
    const pending = record as PendingCreate;
    return [pending.idempotencyKey, sha256Hex(canonicalJson(pending.payload))];
  }
  return kind === 'posts' ? (record as PostRecord).postId : (record as MediaRecord | PendingUpload).mediaId;
}

export function unconfirmedRecords(section: ProjectState, seal: StateSeal): UnconfirmedRecords {
  const unconfirmed = (kind: SealedKind): ReadonlySet<string> => {
    const keys = new Set<string>();
    if (!seal.checks) return keys;
    const records = section[kind] as Record<string, SealedRecord>;
    for (const key of Object.keys(records)) if (!seal.confirms(kind, key, records[key] as SealedRecord)) keys.add(key);
    return keys;
  };
  return { posts: unconfirmed('posts'), pending: unconfirmed('pending'), media: unconfirmed('media'), uploads: unconfirmed('uploads') };
}

/**
 * The identity of the calendar in `root`: its folder relative to the root of the git repository
 * that holds it (found by walking up to a `.git`), with `/` separators; `.` at the repository root
 * or outside any repository. It names the calendar the same in every clone.
 */
export function calendarIdentity(root: string): string {
  const start = resolve(root);
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(resolve(dir, '.git'))) return relative(dir, start).split(sep).join('/') || '.';
    if (dirname(dir) === dir) return '.';
  }
}
