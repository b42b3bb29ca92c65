import type { Post } from '../api/types.js';
import type { PostShape } from '../content/types.js';
import type { TargetState } from '../state/types.js';
import { liveShape, mediaIdIndex, type LiveShapeFields } from './live-shape.js';
import type { AccountAvailability, LivePostsById, PlanInput } from './types.js';

/** Only these statuses may be edited or deleted; every other status is left alone. */
const EDITABLE_STATUSES = new Set(['draft', 'scheduled']);

/** Lookups the planning rules share, built once per plan. */
export interface PlanContext {
  state: TargetState;
  accounts: Map<string, AccountAvailability>;
  prune: boolean;
  livePost(postId: string): Post | undefined;
  /** The live post's id and updatedAt (`untouchedSinceApply`), without working out the whole post. */
  liveBrief(postId: string): Pick<Post, 'id' | 'updatedAt'> | undefined;
  /** Memoized `liveShape` of a remote post (or of what a payload would make: `LiveShapeFields`). */
  shapeOf(post: LiveShapeFields): PostShape;
  /** The remote post an interrupted create of this key already made, when the listing shows it (`matchPendingCreates`). */
  pendingPost(key: string): Post | undefined;
}

export function planContext(
  input: Pick<PlanInput, 'state' | 'live' | 'accounts' | 'prune' | 'mediaSha256s'>,
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
  return {
    state: input.state,
    accounts: input.accounts,
    prune: input.prune,
    livePost: (postId) => live.get(postId),
    liveBrief: (postId) => live.briefs.get(postId),
    shapeOf,
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
export function notEditableReason(post: Post, verb: 'edited' | 'deleted'): string {
  return post.status === 'published'
    ? `post is published; published posts are never ${verb}`
    : `post is ${post.status}; only draft and scheduled posts can be ${verb}`;
}

/** Posts already in hand (every one parsed) as a LivePostsById: each is its own brief. */
export function livePostsById(posts: readonly Post[]): LivePostsById {
  const byId = new Map(posts.map((post) => [post.id, post]));
  return { get: (id) => byId.get(id), briefs: byId };
}
