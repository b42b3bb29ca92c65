import type { Post } from '../api/types.js';
import type { ProjectState } from '../state/types.js';
import { liveShape, mediaIdIndex, type LiveShapeFields } from './live-shape.js';
import type { DesiredPost, PostShape } from '../content/types.js';
import type { ReasonDetail } from './reason-details.js';
import type { AccountAvailability, LivePostsById, PlanChoices } from './types.js';

/** Only these statuses may be edited or deleted; every other status is left alone. */
const EDITABLE_STATUSES = new Set(['draft', 'scheduled']);

/** Lookups the planning rules share, built once per plan. */
export interface PlanContext {
  state: ProjectState;
  accounts: Map<string, AccountAvailability>;
  prune: boolean;
  livePost(postId: string): Post | undefined;
  /** The live post's id and updatedAt (`untouchedSinceApply`), without working out the whole post. */
  liveBrief(postId: string): Pick<Post, 'id' | 'updatedAt'> | undefined;
  /** Memoized `liveShape` of a remote post (or of what a payload would make: `LiveShapeFields`). */
  shapeOf(post: LiveShapeFields): PostShape;
  /** The remote post an interrupted create of this key already made, when the listing shows it (`matchPendingCreates`). */
  pendingPost(key: string): Post | undefined;
  /** The plan's time (ISO instant): how recent a write is (`recentlyWritten`); absent, no write is. */
  now: string | undefined;
  /** Whether a person chose to create this key's held post anew (`--recreate`). */
  recreates(key: string): boolean;
  /** The file of each repeat the desired posts hold occurrences of, by the repeat's key (`OccurrenceOf.of`). */
  repeatFiles: ReadonlyMap<string, string>;
}

/**
 * How long after postsync wrote a post a remote that does not show it is taken to lag the write
 * rather than to have lost the post. Either way nothing is sent: past it, the post is held as
 * deleted on the remote. Ten minutes: a read replica or a search index may take that long; a
 * person's deletion in that time is only reported later.
 */
const RECENT_WRITE_MS = 10 * 60_000;

/** Whether postsync wrote this record's post so recently that a remote not showing it yet is a lagging read. */
export function recentlyWritten(record: { appliedAt: string }, now: string | undefined): boolean {
  if (now === undefined) return false;
  const since = Date.parse(now) - Date.parse(record.appliedAt);
  return since >= 0 && since < RECENT_WRITE_MS;
}

/** The lookups of a plan: `mediaSha256s` and `choices` as in `PlanInput`, `now` as an ISO instant (absent: no write is recent). */
export function planContext(
  input: { state: ProjectState; live: LivePostsById; accounts: Map<string, AccountAvailability>; prune: boolean; mediaSha256s?: ReadonlyMap<string, string>; choices?: PlanChoices; now?: string; desired?: readonly DesiredPost[] },
  found: { pendingPosts?: (context: Pick<PlanContext, 'shapeOf'>) => ReadonlyMap<string, Post> } = {},
): PlanContext {
  const { live } = input;
  const mediaIdToSha = mediaIdIndex(input.state);
  // The state's records win: the supplement only names media ids the state does not know.
  for (const [id, sha256] of input.mediaSha256s ?? []) if (!mediaIdToSha.has(id)) mediaIdToSha.set(id, sha256);
  const shapes = new Map<LiveShapeFields, PostShape>();
  const shapeOf = (post: LiveShapeFields): PostShape => {
    let shape = shapes.get(post);
    if (!shape) {
      shape = liveShape(post, mediaIdToSha);
      shapes.set(post, shape);
    }
    return shape;
  };
  // Worked out once, on the first question: most plans resume no create.
  let pendingPosts: ReadonlyMap<string, Post> | undefined;
  const repeatFiles = new Map<string, string>();
  for (const post of input.desired ?? []) if (post.occurrence !== undefined) repeatFiles.set(post.occurrence.of, post.file);
  return {
    repeatFiles,
    state: input.state,
    accounts: input.accounts,
    prune: input.prune,
    livePost: (postId) => live.get(postId),
    liveBrief: (postId) => live.briefs.get(postId),
    shapeOf,
    now: input.now,
    recreates: (key) => input.choices !== undefined && (input.choices.recreate.all || input.choices.recreate.keys.has(key)),
    pendingPost(key) {
      pendingPosts ??= found.pendingPosts?.({ shapeOf }) ?? new Map();
      return pendingPosts.get(key);
    },
  };
}

export function isEditable(post: Post): boolean {
  return EDITABLE_STATUSES.has(post.status);
}

/** Why a post in this status cannot be edited (`verb` = "edited") or deleted. */
export function notEditable(post: Post, verb: 'edited' | 'deleted'): ReasonDetail {
  return { code: 'not-editable', status: post.status, verb };
}

/** Posts already in hand (every one parsed) as a LivePostsById: each is its own brief. */
export function livePostsById(posts: readonly Post[]): LivePostsById {
  const byId = new Map(posts.map((post) => [post.id, post]));
  return { get: (id) => byId.get(id), briefs: byId };
}
