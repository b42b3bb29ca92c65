import type { CreatePostBody } from '../api/types.js';

/**
 * `.postsync/state.json`: what postsync owns on each remote. Committed to the repo like a
 * lockfile. One section per target (API URL + project), so planning against the embedded local
 * API never touches the records of a real one.
 * Invariants: only posts in `posts` are ever updated or deleted; a key is in at most one of
 * `posts` and `pending`; the file is written atomically after every single change.
 */
export interface StateFile {
  version: 1;
  targets: Record<string, ProjectState>;
}

export interface ProjectState {
  apiUrl: string;
  projectId: string;
  posts: Record<string, PostRecord>;
  /** sha256 → uploaded media. */
  media: Record<string, MediaRecord>;
  /** Creates started but not confirmed: resent with the same Idempotency-Key on the next run. */
  pending: Record<string, PendingCreate>;
  /** Multipart uploads started but not completed, by sha256, so they can resume. */
  uploads: Record<string, PendingUpload>;
}

export interface PostRecord {
  postId: string;
  file: string;
  /** sha256 of the canonical JSON of the PostShape last applied. */
  appliedHash: string;
  /** `updatedAt` of the remote post right after our last write; the same → untouched since (a plan need not compare shapes). */
  remoteUpdatedAt: string;
  /**
   * sha256 of the canonical JSON of the remote post's shape as the service answered our last write
   * (or as read back, or as adopted): what the service keeps, which may be a tidied form of what was
   * sent. The file changed = file ≠ `appliedHash`; the remote changed = live ≠ `observedHash`. Absent
   * in records written before it existed: a plan then takes a live post that is the applied file,
   * tidying aside (`tidiedShape`), as unchanged, and the next apply records what it read.
   */
  observedHash?: string;
  appliedAt: string;
  /**
   * Set by `postsync state merge` when two branches both changed this entry: `appliedHash` and
   * `remoteUpdatedAt` are then not to be trusted, so a plan compares the remote post with the file
   * itself. Absent in every record postsync writes, so a write of the post drops it.
   */
  reread?: true;
  /**
   * The final status (`published`) an apply saw the remote post in, `remoteUpdatedAt` being its
   * `updatedAt` then. A final post never changes again through postsync, so plans do not read it
   * while its file is as applied (`--refresh-all` does). Absent: the post is not known final.
   */
  final?: string;
  /** For a `scheduledAt: next-slot` post: the slot time (an instant) it was applied with; it keeps that time. */
  slotAt?: string;
  /**
   * The digests of what the applied file was made from, by source id (`file`, `snippet:<path>`,
   * `var:<name>`, `hashtags:<name>`, `repeat`, `rule:<name>`: `PostOrigins` in src/content), so that
   * a plan can say which of them a changed field comes from. Absent in records written before it
   * (and in a post adopted as found): a plan then attributes no change to any source.
   */
  sources?: Record<string, string>;
  /** HMAC of what the record points at, by the API key (`StateSeal`): absent or wrong, no apply of this repository wrote it. */
  seal?: string;
}

export interface MediaRecord {
  mediaId: string;
  sizeBytes: number;
  contentType: string;
  uploadedAt: string;
  /** HMAC of what the record points at, by the API key (`StateSeal`): absent or wrong, no apply of this repository wrote it. */
  seal?: string;
}

export interface PendingCreate {
  file: string;
  idempotencyKey: string;
  /** The exact body sent (or about to be sent) with that key. */
  payload: CreatePostBody;
  /** Hash of the PostShape this create was for. */
  shapeHash: string;
  startedAt: string;
  /** HMAC of what the record points at, by the API key (`StateSeal`): absent or wrong, no apply of this repository wrote it. */
  seal?: string;
}

export interface PendingUpload {
  mediaId: string;
  partSizeBytes: number;
  partCount: number;
  startedAt: string;
  /** HMAC of what the record points at, by the API key (`StateSeal`): absent or wrong, no apply of this repository wrote it. */
  seal?: string;
}

/** The kinds of records a state section holds, each written and sealed apart. */
export type JournalField = 'posts' | 'pending' | 'media' | 'uploads';

/** The keys of a section's records that do not carry the seal of this repository's key, by kind. */
export type UnconfirmedRecords = Record<JournalField, ReadonlySet<string>>;

/** One target's section of a state file as read, with its hash (`stateSectionHash`). */
export interface StateSection {
  section: ProjectState;
  hash: string;
}
