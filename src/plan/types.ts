import type { Diagnostic } from '../diagnostics.js';
import type { DesiredPost, PostShape } from '../content/types.js';
import type { Post } from '../api/types.js';
import type { TargetState } from '../state/types.js';

/** The closed set of actions. Every change carries one, with its reasons. */
export type Action = 'create' | 'adopt' | 'update' | 'unschedule' | 'delete' | 'move' | 'noop' | 'blocked';

export const ACTIONS: readonly Action[] = ['create', 'adopt', 'update', 'unschedule', 'delete', 'move', 'noop', 'blocked'];

/** One field that differs. `field` is a path such as `content`, `scheduledAt`, `media`, `targets[<accountId>].options.vidATitle`. */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/**
 * One planned change. Apply executes exactly this and nothing else.
 * - create: `desired` set, `postId` null (or the id a pending create resolves to, `resumesPending`).
 * - adopt: `postId` (a remote post no state entry owns, exactly `desired`), `desired`, `liveUpdatedAt`,
 *   `stateOnly`: instead of a create, the state records the post (`adopt-matches.ts`), and
 *   `mediaRecords` its media the state did not know (so they are never uploaded again).
 * - update: `postId`, `desired`, `fields` (live → desired) and `liveUpdatedAt` set.
 * - unschedule: an owned scheduled post whose file is gone goes back to draft (`scheduledAt: null`),
 *   so nothing publishes that no file stands for; `postId`, `liveUpdatedAt`, `fields` (the time →
 *   null). With `resumesPending`, an interrupted create is resolved first. `--prune` deletes instead.
 * - delete: `postId`, `liveUpdatedAt` (only with --prune, or `stateOnly`).
 * - move: `fromKey` → `key`, zero API calls, state re-keyed.
 * - noop, blocked: nothing is executed; blocked says why in `reasons`, and a post blocked because
 *   a file has errors carries those errors in `diagnostics`.
 */
/**
 * Why a change is what it is, as a code beside the prose `reasons`, for views and tools to act on
 * (never match the prose). `file-removed`: the post's file is gone (an unschedule, a delete with
 * --prune, or a noop: the post stays a draft); `unconfirmed-record`: blocked, the state record it
 * rests on has no valid seal (plan/unconfirmed-records.ts).
 */
export type ChangeReason = 'file-removed' | 'unconfirmed-record';

export interface Change {
  action: Action;
  /** The reason as a code, where one is given. */
  reason?: ChangeReason;
  key: string;
  /** Project-relative Markdown file, or the last known file for a delete. */
  file: string | null;
  postId: string | null;
  reasons: string[];
  desired?: PostShape;
  fields?: FieldChange[];
  /** Fields changed on the remote since postsync last wrote them. */
  drift?: FieldChange[];
  /** The remote post's `updatedAt` when planned; apply refuses the change if it moved since. */
  liveUpdatedAt?: string;
  fromKey?: string;
  /** A pending create from an interrupted run is resent with its original Idempotency-Key. */
  resumesPending?: boolean;
  /**
   * Only the state changes, no API call: a `delete` of a post already deleted on the remote
   * (its record is forgotten). Executed whatever `prune` says, since nothing remote is touched.
   */
  stateOnly?: boolean;
  /** Set on a change `blocked` because a file has errors (guards): those errors, of every file it stands for. */
  diagnostics?: Diagnostic[];
  /** The post's time came from a slot (`scheduledAt: next-slot`); apply records it in the state, and the post keeps it. */
  slot?: ChangeSlot;
  /** The post is an occurrence of the repeat in `file`: the key of the file's post and the occurrence's date (YYYY-MM-DD). */
  occurrence?: { of: string; date: string };
  /** On an adopt: the adopted post's media the state has no record of, which apply records (sha256 → remote media id). */
  mediaRecords?: AdoptedMedia[];
}

/** A remote media an adopted post uses, known by content: the media record apply writes in the state for it. */
export interface AdoptedMedia {
  sha256: string;
  mediaId: string;
  sizeBytes: number;
  contentType: string;
}

/** The slot a post's time came from: as postsync.yaml writes it (`Mon 09:00`), the time, and whether it was kept from the state or picked now. */
export interface ChangeSlot {
  slot: string;
  scheduledAt: string;
  source: 'recorded' | 'assigned';
}

/** A media file that has no uploaded copy yet (state has no media id for its sha256). */
export interface MediaUpload {
  sha256: string;
  path: string;
  sizeBytes: number;
  contentType: string;
  kind: 'image' | 'video';
  /** Keys of the posts that use it. */
  usedBy: string[];
}

/** Which remote a plan (and a state section) is for. `id` is the state section key. */
export interface PlanTarget {
  id: string;
  apiUrl: string;
  projectId: string;
  /** True for the embedded local API. */
  local: boolean;
}

export type Summary = Record<Action, number>;

/** A plan is data: versioned, serializable (`plan --out`), executed by `apply PLANFILE`. */
export interface Plan {
  formatVersion: 1;
  createdAt: string;
  target: PlanTarget;
  /** Hash of the target's state section when planned; apply refuses the plan if state moved. */
  stateHash: string;
  prune: boolean;
  /** Keys the plan was limited to (`--target`), or null for all. */
  only: string[] | null;
  uploads: MediaUpload[];
  changes: Change[];
  summary: Summary;
  diagnostics: Diagnostic[];
}

/** Availability of one social account, from its capabilities. */
export interface AccountAvailability {
  available: boolean;
  reason?: string;
}

/**
 * Remote posts by id: each in full, and each as a brief that is enough to tell it untouched since
 * the last apply. A source may work a post out in full only when it is asked for (LiveListing).
 */
export interface LivePostsById {
  get(id: string): Post | undefined;
  readonly briefs: ReadonlyMap<string, Pick<Post, 'id' | 'updatedAt'>>;
}

/** Everything the pure planner needs; it reads no file, network or clock beyond this. */
export interface PlanInput {
  target: PlanTarget;
  /** Validated and normalized desired posts (files with errors are already left out). */
  desired: DesiredPost[];
  /** Passed through into the plan unchanged. */
  diagnostics: Diagnostic[];
  /** The target's state section. */
  state: TargetState;
  /** `stateSectionHash(state)`. */
  stateHash: string;
  /** Every remote post listed, owned or not, by id. */
  live: LivePostsById;
  /**
   * Remote media ids the state has no record of, by the sha256 of their content as downloaded from
   * the service (`pipeline/orphan-media.ts`): with the state's own records, how a live post's media
   * are known by content. Absent or empty: only the state's records.
   */
  mediaSha256s?: ReadonlyMap<string, string>;
  /** By account id. An account of a desired post missing here is treated as not connected. */
  accounts: Map<string, AccountAvailability>;
  prune: boolean;
  /** `--target` keys: changes of other keys are left out. Null for all. */
  only: string[] | null;
  /** ISO instant, becomes `createdAt`. */
  now: string;
}
