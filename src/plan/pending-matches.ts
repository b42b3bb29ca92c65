import type { Post } from '../api/types.js';
import type { PostShape } from '../content/types.js';
import { shapeHash } from '../content/shape-hash.js';
import type { PendingCreate, ProjectState } from '../state/types.js';
import { compareText } from '../text/ordering.js';
import { inputOptions, isLeftToService, withoutOptionsHash } from './live-shape.js';
import { isEditable, type PlanContext } from './plan-context.js';
import type { LivePostsById } from './types.js';

/** The draft a pending create's payload makes, as a shape (media ids mapped through state). */
export function pendingDraft(payload: PendingCreate['payload'], context: Pick<PlanContext, 'shapeOf'>): PostShape {
  return context.shapeOf({
    content: payload.content,
    scheduledAt: null,
    targets: payload.targets.map((target) => ({ ...target, options: inputOptions(target.options) })) as Post['targets'],
    media: payload.mediaIds.map((id) => ({ id })) as Post['media'],
  });
}

/** A remote post as the draft a create would have made: its schedule left out (a create sends none). */
function draftOf(post: Post, context: Pick<PlanContext, 'shapeOf'>): PostShape {
  return { ...context.shapeOf(post), scheduledAt: null };
}

/**
 * The post each interrupted create already made, when the remote shows it: an editable post no
 * state record owns that is exactly the draft of the pending payload. Resending the create with its
 * Idempotency-Key returns that post only while the service remembers the key, and services forget
 * keys (24 h is typical): taken from the listing instead, the create is never sent twice, so an
 * interrupted create never becomes a second post. One post per pending create: creates in key
 * order take posts oldest first (createdAt, then id), as adopt pairs them. Twin creates (the same
 * payload under several keys) take posts only when there is one for each: with fewer, which of
 * them made it is unknown, and each is resent under its own key, which the service answers with
 * that key's post if it still knows it.
 */
export function matchPendingCreates(state: ProjectState, live: LivePostsById, context: Pick<PlanContext, 'shapeOf'>): Map<string, Post> {
  const found = new Map<string, Post>();
  const keys = Object.keys(state.pending).sort(compareText);
  if (keys.length === 0) return found;
  // Twins share a draft (same hash); each draft is looked for among the posts of its options-free bucket.
  const wanted = new Map<string, { draft: PostShape; keys: string[] }>();
  for (const key of keys) {
    const draft = pendingDraft(state.pending[key]!.payload, context);
    const hash = shapeHash(draft);
    wanted.set(hash, { draft, keys: [...(wanted.get(hash)?.keys ?? []), key] });
  }
  const buckets = new Set([...wanted.values()].map(({ draft }) => withoutOptionsHash(draft)));
  const owned = new Set(Object.values(state.posts).map((record) => record.postId));
  const candidates: Post[] = [];
  for (const id of live.briefs.keys()) {
    if (owned.has(id)) continue;
    const post = live.get(id);
    if (post && isEditable(post) && buckets.has(withoutOptionsHash(draftOf(post, context)))) candidates.push(post);
  }
  candidates.sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id));
  const taken = new Set<Post>();
  for (const [hash, { draft, keys: twins }] of wanted) {
    const posts = candidates.filter((post) => !taken.has(post) && isLeftToService(draftOf(post, context), draft, hash));
    if (posts.length < twins.length) continue;
    twins.forEach((key, index) => {
      found.set(key, posts[index]!);
      taken.add(posts[index]!);
    });
  }
  return found;
}
