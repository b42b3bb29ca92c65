import type { Diagnostic } from '../diagnostics.js';
import type { DesiredPost, InvalidFile, PostShape } from '../content/types.js';
import type { Origin } from '../content/types.js';
import type { Capabilities, Post } from '../api/types.js';
import type { OccurrenceOf } from '../repeats/index.js';
import type { ReasonDetail } from './reason-details.js';
import type { UnconfirmedRecords } from '../state/types.js';
import type { StateSection } from '../state/types.js';

/** The closed set of actions. Every change carries one, with its reason code and details. */
export type Action = 'create' | 'adopt' | 'update' | 'unschedule' | 'delete' | 'move' | 'noop' | 'blocked';

export const ACTIONS: readonly Action[] = ['create', 'adopt', 'update', 'unschedule', 'delete', 'move', 'noop', 'blocked'];

/** One field that differs. `field` is a path such as `content`, `scheduledAt`, `media`, `targets[<accountId>].options.vidATitle`. */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
  /** `media` only: the files of both lists, in post order, named as far as they are known (`withMediaFiles`). */
  files?: { before: MediaFile[]; after: MediaFile[] };
}

/** A media file of a post by its bytes; its path and size where the files or the state know them. */
export interface MediaFile {
  /** sha256 hex, or `id:<uuid>` for a remote media file nothing here knows the bytes of. */
  sha256: string;
  /** Project-relative path of the file the post names. */
  path?: string;
  sizeBytes?: number;
}

/** A changed field of an update and one source it changed through since the last apply (a field may have several). */
export interface FieldOrigin {
  field: string;
  source: Origin;
}

/**
 * Why a change is what it is, as a code: a closed set per action, for views, tools and the plan's
 * own steps to act on. Its `details` say the rest as data (`src/plan-words` makes them words).
 * - create: `new-file` (no state record), `new-occurrence` (a repeat's occurrence no state record
 *   has, its file may be old), `interrupted-create` (a pending create is resent), `deleted-on-remote`
 *   (the recorded post is gone: created again, only by a person's choice, `--recreate`).
 * - adopt: `unowned-match` (a remote post no state entry owns is exactly this post), `tidied-match`
 *   (it is this post in a form the service may keep it in: `tidiedShape`), `chosen` (a person chose
 *   it with `--adopt`: taken as found, the next plan updates it to the file).
 * - update: `file-changed` (the file differs from what was applied; the remote may have drifted
 *   too), `drifted` (only the remote moved), `merged-record` (a state record merged from two branches:
 *   the file wins).
 * - unschedule, delete, noop: `file-removed` (the post's file is gone), `occurrence-removed` (its
 *   repeat no longer has this occurrence); delete: `gone-on-remote` (already deleted there: the record
 *   is forgotten); noop: `up-to-date`, `not-visible-yet` (postsync wrote the post moments ago and the
 *   remote does not show it yet: a read that lags a write).
 * - move: `renamed` (new path), `key-changed` (same file, new key).
 * - blocked: `file-errors` (a file it stands for has errors), `project-errors` (an error on no post
 *   file), `unreadable-file` (a file that cannot be read may be this post renamed), `unconfirmed-record`
 *   (the state record it rests on has no valid seal), `shared-record` (two state records point at its
 *   post), `not-editable` (published, or otherwise not editable), `account-unavailable`,
 *   `scheduled-in-past`, `deleted-on-remote` (the recorded post is gone from the remote: a person
 *   decides, `--recreate`), `adopt-ambiguous` (several remote posts no state entry owns may be this
 *   new file's post), `adopt-uncertain` (one looks like it but is not certainly it).
 */
export const CHANGE_REASONS = {
  create: ['new-file', 'new-occurrence', 'interrupted-create', 'deleted-on-remote'],
  adopt: ['unowned-match', 'tidied-match', 'chosen'],
  update: ['file-changed', 'drifted', 'merged-record'],
  unschedule: ['file-removed', 'occurrence-removed'],
  delete: ['file-removed', 'occurrence-removed', 'gone-on-remote'],
  move: ['renamed', 'key-changed'],
  noop: ['up-to-date', 'file-removed', 'occurrence-removed', 'published-kept', 'not-visible-yet'],
  blocked: ['file-errors', 'held-by-rule', 'project-errors', 'unreadable-file', 'unconfirmed-record', 'shared-record', 'other-calendar', 'not-editable', 'account-unavailable', 'scheduled-in-past', 'deleted-on-remote', 'adopt-ambiguous', 'adopt-uncertain'],
} as const satisfies Record<Action, readonly string[]>;

/** The reason codes of one action. */
export type ReasonOf<A extends Action> = (typeof CHANGE_REASONS)[A][number];
export type ChangeReason = ReasonOf<Action>;

/** What every change has. Apply executes exactly the change and nothing else. */
interface ChangeOf<A extends Action> {
  action: A;
  reason: ReasonOf<A>;
  key: string;
  /**
   * Project-relative Markdown file: the post's own file on a change that writes it (create, adopt,
   * update, move, unschedule); on a delete, noop or blocked change the last known file, if any.
   */
  file: string | null;
  postId: string | null;
  /** What people are told about it, as codes and facts (`src/plan-words` renders them); act on `reason`. */
  details: ReasonDetail[];
  /** The post's time came from a slot (`scheduledAt: next-slot`); apply records it in the state, and the post keeps it. */
  slot?: ChangeSlot;
  /** The post is an occurrence of the repeat in `file`. */
  occurrence?: OccurrenceOf;
}

/**
 * The fields only some actions use. A change of another action never has them (`?: never`), so
 * reading one of them off any change is typed, and setting it on the wrong action does not compile.
 */
interface ActionFields {
  desired: PostShape;
  fields: FieldChange[];
  drift: FieldChange[];
  liveUpdatedAt: string;
  fromKey: string;
  resumesPending: true;
  stateOnly: true;
  mediaRecords: AdoptedMedia[];
  observedHash: string;
  asFound: true;
  diagnostics: Diagnostic[];
  sources: Record<string, string>;
  origins: FieldOrigin[];
}
type Without<Own extends keyof ActionFields> = { [F in Exclude<keyof ActionFields, Own>]?: never };

/**
 * A post no remote post stands for yet. With `resumesPending`, an interrupted create is resolved:
 * resent with its original Idempotency-Key, or, when the plan found the post it made on the remote
 * (`postId`), that post is taken and the create is not sent again.
 */
export interface CreateChange extends ChangeOf<'create'>, Without<'desired' | 'resumesPending' | 'sources'> {
  file: string;
  /** Null, but for a resumed create whose post the plan found on the remote. */
  postId: string | null;
  desired: PostShape;
  resumesPending?: true;
  /** The digests of what the file was made from (`PostOrigins.digests`), for the state record (`PostRecord.sources`). */
  sources?: Record<string, string>;
}

/**
 * A remote post no state entry owns that is exactly `desired`: instead of a create, the state
 * records the post (`adopt-matches.ts`), and `mediaRecords` its media the state did not know (so
 * they are never uploaded again). No API call (`stateOnly`).
 */
export interface AdoptChange extends ChangeOf<'adopt'>, Without<'desired' | 'liveUpdatedAt' | 'stateOnly' | 'mediaRecords' | 'observedHash' | 'asFound' | 'sources'> {
  file: string;
  postId: string;
  desired: PostShape;
  /** The remote post's `updatedAt` when planned. */
  liveUpdatedAt: string;
  /** The hash of the remote post's shape when planned: the record's observed shape (`PostRecord.observedHash`); absent in a plan saved by an older postsync. */
  observedHash?: string;
  /**
   * Adopted as it is found, by a person's choice (`--adopt KEY=POST_ID`), not because it is the file:
   * the record takes the remote post as applied, so the next plan updates it to the file.
   */
  asFound?: true;
  stateOnly: true;
  mediaRecords?: AdoptedMedia[];
  /** As on a create; not on a post adopted as found (the record is then not the file). */
  sources?: Record<string, string>;
}

/** The remote post is written to be `desired`; `fields` live → desired. */
export interface UpdateChange extends ChangeOf<'update'>, Without<'desired' | 'fields' | 'drift' | 'liveUpdatedAt' | 'sources' | 'origins'> {
  file: string;
  postId: string;
  desired: PostShape;
  fields: FieldChange[];
  /** Fields changed on the remote since postsync last wrote them. */
  drift?: FieldChange[];
  /** The remote post's `updatedAt` when planned; apply refuses the change if it moved since. */
  liveUpdatedAt: string;
  /** As on a create. */
  sources?: Record<string, string>;
  /**
   * On a `file-changed` update: each changed field and the sources it changed through since the last
   * apply (the post file, a snippet, a var, …). Absent when the state record or the post does not
   * know its sources (a record written before they were kept): nothing is attributed then.
   */
  origins?: FieldOrigin[];
}

/**
 * An owned scheduled post no file (or occurrence) stands for any more goes back to draft
 * (`scheduledAt: null`), so nothing publishes that no file stands for; `fields` (the time → null).
 * With `resumesPending`, an interrupted create is resolved first (`postId`: the post it made when the
 * plan found it on the remote, else null). `--prune` deletes instead.
 */
export type UnscheduleChange = UnscheduleOwned | UnscheduleResumed;

interface UnscheduleOf extends ChangeOf<'unschedule'>, Without<'liveUpdatedAt' | 'fields' | 'resumesPending'> {
  file: string;
  liveUpdatedAt?: string;
  fields?: FieldChange[];
}

/** The post of a state record: its id is known. */
interface UnscheduleOwned extends UnscheduleOf {
  postId: string;
  resumesPending?: undefined;
}

/** The post of an interrupted create: known only when the plan found it on the remote. */
interface UnscheduleResumed extends UnscheduleOf {
  postId: string | null;
  resumesPending: true;
}

/**
 * The remote post is deleted (only with --prune), or with `stateOnly` its record is forgotten: the
 * post is already gone on the remote, so this runs whatever `prune` says. With `resumesPending`,
 * an interrupted create is resolved first (`postId` as for an unschedule).
 */
export interface DeleteChange extends ChangeOf<'delete'>, Without<'liveUpdatedAt' | 'stateOnly' | 'resumesPending'> {
  liveUpdatedAt?: string;
  stateOnly?: true;
  resumesPending?: true;
}

/** `fromKey` → `key`: zero API calls, the state record is re-keyed. */
export interface MoveChange extends ChangeOf<'move'>, Without<'fromKey' | 'liveUpdatedAt'> {
  file: string;
  fromKey: string;
  postId: string;
  liveUpdatedAt?: string;
}

/** Nothing to do: the post is up to date, or a removed file's post stays a draft. */
export interface NoopChange extends ChangeOf<'noop'>, Without<'liveUpdatedAt'> {
  postId: string;
  liveUpdatedAt: string;
}

/**
 * Nothing is executed; `reason` and `details` say why. It keeps what the change it stands for had (the fields
 * of that action), for views to show; a post blocked because a file has errors carries those
 * errors in `diagnostics`.
 */
export interface BlockedChange extends ChangeOf<'blocked'>, Without<keyof ActionFields> {
  desired?: PostShape;
  fields?: FieldChange[];
  drift?: FieldChange[];
  liveUpdatedAt?: string;
  fromKey?: string;
  resumesPending?: true;
  stateOnly?: true;
  mediaRecords?: AdoptedMedia[];
  observedHash?: string;
  asFound?: true;
  diagnostics?: Diagnostic[];
  sources?: Record<string, string>;
  origins?: FieldOrigin[];
}

/** One planned change: a union by `action`, each with exactly the fields it uses and its reason code. */
export type Change = CreateChange | AdoptChange | UpdateChange | UnscheduleChange | DeleteChange | MoveChange | NoopChange | BlockedChange;

/** The change of one action. */
export type ChangeWith<A extends Action> = Extract<Change, { action: A }>;

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
export interface RemoteProject {
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
  target: RemoteProject;
  /** Hash of the target's state section when planned; apply refuses the plan if state moved. */
  stateHash: string;
  prune: boolean;
  /** Keys the plan was limited to (`--target`, `selectPlan`), or null for all. */
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

/**
 * The planner's whole input (`planPosts`): it reads no file, network or clock beyond this. A
 * selection of posts (`--target`) is no input: it is made on the finished plan (`selectPlan`).
 */
export interface PlanInput {
  project: RemoteProject;
  /** The posts as the files say, checked against their accounts' rules (`DesiredSide` in src/pipeline). */
  desired: {
    /** Validated and normalized desired posts, sorted by key (files with errors and held posts are left out). */
    posts: readonly DesiredPost[];
    /** Valid posts a schedule error of their own holds back (a house rule they break, no free slot): blocked, their files stand. */
    held: readonly HeldPost[];
    /** Files that yield no post because of their errors: their posts are blocked. */
    invalid: readonly InvalidFile[];
    /** Problems of the files themselves and the schedule policies'; passed into the plan, then the account-rule checks. */
    contentDiagnostics: readonly Diagnostic[];
    /** The account-rule checks of the posts. */
    checkDiagnostics: readonly Diagnostic[];
  };
  /** What the service says. */
  remote: {
    /** Every remote post listed, owned or not, by id. */
    live: LivePostsById;
    /**
     * Remote media ids the state has no record of, by the sha256 of their content as downloaded from
     * the service (`pipeline/orphan-media.ts`): with the state's own records, how a live post's media
     * are known by content. Absent or empty: only the state's records.
     */
    mediaSha256s?: ReadonlyMap<string, string>;
    /** Capabilities of the accounts in use, by id (an account missing here is not connected). */
    capabilities: ReadonlyMap<string, Capabilities>;
  };
  /** The remote project's state section and its hash (`stateSectionHash`), and what the plan may not trust or act on. */
  state: StateSection & {
    /** The records of `section` without a valid seal (`unconfirmedRecords`); absent: none. */
    unconfirmed?: UnconfirmedRecords;
    /** The posts other calendars of the repository record (`ForeignOwners`): never adopted, matched or acted on here. Absent: none. */
    foreignOwners?: ReadonlyMap<string, string>;
  };
  /** Whether owned posts whose files are gone are deleted (else unscheduled). */
  prune: boolean;
  /** The plan's time: it becomes `createdAt`, and nothing is scheduled before it. */
  now: Date;
  /** The project's time zone (`config.timezone`): the plan's reasons name times on its clock. */
  timezone: string;
  /** A person's decisions on posts the plan would otherwise hold (`--adopt`, `--recreate`); absent: none. */
  choices?: PlanChoices;
}

/** A valid post held back by a schedule error of its own: the plan blocks it (`held-by-rule`), its file stands. */
export type HeldPost = Pick<DesiredPost, 'key' | 'file'>;

/**
 * A person's decisions on held posts, given on the command line: `adopt` (`--adopt KEY=POST_ID`)
 * takes that remote post for a new file's post as it is found (the next plan updates it to the
 * file); `recreate` (`--recreate KEY`, `--recreate-all`) creates a held post anew: a post deleted
 * on the remote, or a new file that a remote post may be.
 */
export interface PlanChoices {
  adopt: ReadonlyMap<string, string>;
  recreate: { all: boolean; keys: ReadonlySet<string> };
}
