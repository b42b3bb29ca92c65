import type { Post } from '../../api/types.js';
import type { FixtureAccount, PublishBehavior, RateLimit } from '../fixture/fixture.js';

/**
 * A post as stored: the wire Post, except that media are referenced by id (the wire Media carries
 * absolute URLs, which depend on the address the emulator listens on).
 *
 * Post status values (TSDoc of PostStatus in src/api/types.ts):
 * - `draft`: no scheduledAt; editable, deletable.
 * - `scheduled`: scheduledAt set and not yet due; editable (with posts-publish), deletable.
 * - `publishing`: due; at least one target is `waiting` (throttled) and will be retried.
 * - `published`: every target published.
 * - `partially_published`: some targets published, the others failed.
 * - `failed`: every target failed.
 */
export type StoredPost = Pick<Post, 'id' | 'status' | 'content' | 'scheduledAt' | 'publishedAt' | 'createdAt' | 'updatedAt' | 'targets'> & {
  mediaIds: string[];
};

export const EDITABLE_STATUSES: readonly string[] = ['draft', 'scheduled'];

/** Upload state of a media object: `uploading` until completed, or `aborted` (multipart abort). */
export type MediaState = 'uploading' | 'completed' | 'aborted';

export interface StoredPart {
  etag: string;
  size: number;
}

export interface StoredMedia {
  id: string;
  kind: 'image' | 'video';
  contentType: string;
  sizeBytes: number;
  fileName: string;
  /** Storage key of the object (and prefix of its parts). */
  objectKey: string;
  createdAt: string;
  state: MediaState;
  multipart?: {
    partSizeBytes: number;
    partCount: number;
    /** partNumber → stored part. */
    parts: Record<string, StoredPart>;
    /** Storage assembled the parts into the object (multipart `complete`). */
    assembled: boolean;
  };
  width?: number;
  height?: number;
  durationSeconds?: number;
  /** Common codec names read from the stored file (h264, hevc, aac, ...); not part of the wire Media. */
  videoCodec?: string;
  audioCodec?: string;
}

/** A fixture account with its defaults applied. */
export interface AccountRecord extends FixtureAccount {
  status: string;
  available: boolean;
  publishBehavior: PublishBehavior;
}

/** The remembered outcome of a POST /posts with an Idempotency-Key. */
export interface IdempotencyOutcome {
  payloadHash: string;
  status: number;
  data: unknown;
  createdMs: number;
}

export type IdempotencyEntry = ({ state: 'in-progress' } & Pick<IdempotencyOutcome, 'payloadHash' | 'createdMs'>) | ({ state: 'done' } & IdempotencyOutcome);

export interface ProjectSettings {
  id: string;
  rateLimit?: RateLimit;
  accounts: AccountRecord[];
}
