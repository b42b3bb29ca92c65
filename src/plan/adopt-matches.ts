import type { Post } from '../api/types.js';
import type { DesiredPost } from '../content/types.js';
import { shapeHash } from '../content/shape-hash.js';
import type { Diagnostic } from '../diagnostics.js';
import type { TargetState } from '../state/types.js';
import { compareText } from '../text/ordering.js';
import { diffShapes, fieldList } from './diff.js';
import { isLeftToService, withoutOptionsHash } from './live-shape.js';
import { pendingDraft } from './pending-matches.js';
import { isEditable, type PlanContext } from './plan-context.js';
import type { AdoptChange, AdoptedMedia, LivePostsById } from './types.js';

/** What `matchAdoptions` found: new key → the remote post it adopts, and a warning per near-match. */
export interface Adoptions {
  adopted: Map<string, Post>;
  diagnostics: Diagnostic[];
}

/**
 * Remote posts a new file may adopt: drafts and scheduled posts that no state entry owns and that
 * no pending create could turn out to be (same content, targets and media as its payload), oldest
 * first (createdAt, then id), so pairing is deterministic.
 */
export function orphans(live: LivePostsById, state: TargetState, context: PlanContext): Post[] {
  const owned = new Set(Object.values(state.posts).map((record) => record.postId));
  const pendingDrafts = new Set(Object.values(state.pending).map((pending) => withoutOptionsHash(pendingDraft(pending.payload, context))));
  const posts: Post[] = [];
  for (const id of live.briefs.keys()) {
    if (owned.has(id)) continue;
    const post = live.get(id);
    if (!post || !isEditable(post)) continue;
    // Options aside: a service may fill in defaults on the post a pending create made.
    if (pendingDrafts.has(withoutOptionsHash({ ...context.shapeOf(post), scheduledAt: null }))) continue;
    posts.push(post);
  }
  return posts.sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id));
}

/**
 * Pairs new files (no state entry, no pending create) with orphan remote posts that are exactly
 * what the file would send: same content and overrides, targets and options, media by content
 * (an id unknown to state never matches) and schedule. One-to-one: files in key order take
 * orphans in createdAt/id order, so two identical files adopt two identical posts, a third
 * creates. An orphan with the same content that differs otherwise is never adopted; it is named
 * in a warning on the file.
 */
export function matchAdoptions(newPosts: readonly DesiredPost[], live: LivePostsById, context: PlanContext): Adoptions {
  const adopted = new Map<string, Post>();
  const diagnostics: Diagnostic[] = [];
  if (newPosts.length === 0) return { adopted, diagnostics };
  const candidates = orphans(live, context.state, context);
  // Each orphan is hashed once, without its options; files take the oldest orphan of their bucket
  // that is exactly them, options they leave to the service aside (`isLeftToService`).
  const byHash = new Map<string, Post[]>();
  for (const live of candidates) {
    const hash = withoutOptionsHash(context.shapeOf(live));
    byHash.set(hash, [...(byHash.get(hash) ?? []), live]);
  }
  const taken = new Set<Post>();
  for (const post of [...newPosts].sort((a, b) => compareText(a.key, b.key))) {
    const bucket = byHash.get(withoutOptionsHash(post.shape)) ?? [];
    const index = bucket.findIndex((live) => isLeftToService(context.shapeOf(live), post.shape, post.shapeHash));
    const exact = index < 0 ? undefined : bucket.splice(index, 1)[0];
    if (exact) {
      taken.add(exact);
      adopted.set(post.key, exact);
      continue;
    }
    const near = candidates.find((live) => !taken.has(live) && live.content === post.shape.content);
    if (near) {
      const nearShape = context.shapeOf(near);
      const differs = fieldList(diffShapes(nearShape, post.shape));
      // An `id:` entry is a media whose content is unknown: no state record, and not downloadable.
      const unknownMedia = nearShape.media.some((sha256) => sha256.startsWith('id:'))
        ? ' (its media are not known by content: the state has no record of them and the service did not offer them for download)'
        : '';
      diagnostics.push({
        severity: 'warning',
        code: 'adopt-near-match',
        file: post.file,
        message: `a remote post (${near.id}, ${near.status}) looks like this one but differs in ${differs}${unknownMedia}; not adopted`,
        hint: 'it will be created anew; delete the remote post, or make the file match it to adopt it',
      });
    }
  }
  return { adopted, diagnostics };
}

/**
 * The adopt change: no API call, the state records the post and the applied hash, and the media
 * records of its media the state does not know (matched by content, so the file's sha256 is the
 * remote media's), so they are never uploaded again.
 */
export function adoptChange(post: DesiredPost, live: Post, context: Pick<PlanContext, 'state' | 'shapeOf'>): AdoptChange {
  const { state } = context;
  const kind = live.status === 'draft' ? 'draft' : 'scheduled post';
  const mediaRecords = new Map<string, AdoptedMedia>();
  post.media.forEach((media, index) => {
    const remote = live.media[index];
    if (remote === undefined || state.media[media.sha256] !== undefined || mediaRecords.has(media.sha256)) return;
    mediaRecords.set(media.sha256, { sha256: media.sha256, mediaId: remote.id, sizeBytes: media.sizeBytes, contentType: media.contentType || remote.contentType });
  });
  return {
    action: 'adopt',
    reason: 'unowned-match',
    key: post.key,
    file: post.file,
    postId: live.id,
    desired: post.shape,
    liveUpdatedAt: live.updatedAt,
    observedHash: shapeHash(context.shapeOf(live)),
    stateOnly: true,
    ...(mediaRecords.size === 0 ? {} : { mediaRecords: [...mediaRecords.values()] }),
    reasons: [`a remote ${kind} with exactly this content, targets, options, media and schedule exists and no state entry owns it: adopted instead of created`],
  };
}
