import type { Post } from '../api/types.js';
import type { DesiredPost } from '../content/types.js';
import { shapeHash } from '../content/shape-hash.js';
import type { Diagnostic } from '../diagnostics.js';
import type { ProjectState } from '../state/types.js';
import { compareText } from '../text/ordering.js';
import { diffShapes, fieldNames } from './diff.js';
import { sourcesOf } from './field-origins.js';
import { isLeftToService, withoutOptionsHash } from './live-shape.js';
import { pendingDraft } from './pending-matches.js';
import { isEditable, type PlanContext } from './plan-context.js';
import { matchTidiedAdoptions, type HeldAdoption } from './tidied-adoptions.js';
import type { AdoptChange, AdoptedMedia, BlockedChange, LivePostsById, ReasonOf } from './types.js';

/** How a new file came to adopt a remote post (its adopt reason). */
export type AdoptHow = ReasonOf<'adopt'>;

/** What `matchAdoptions` found: new key → the remote post it adopts and how, the files it holds, and a warning per choice it could not follow. */
export interface Adoptions {
  adopted: Map<string, { live: Post; how: AdoptHow }>;
  held: Map<string, HeldAdoption>;
  diagnostics: Diagnostic[];
}

/**
 * Remote posts a new file may adopt: drafts and scheduled posts that no state entry owns and that
 * no pending create could turn out to be (same content, targets and media as its payload), oldest
 * first (createdAt, then id), so pairing is deterministic.
 */
export function orphans(live: LivePostsById, state: ProjectState, context: PlanContext): Post[] {
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
 * Pairs new files (no state entry, no pending create) with orphan remote posts. First a person's
 * choice (`--adopt KEY=POST_ID`: that orphan, as found); then exactly what the file would send:
 * same content and overrides, targets and options, media by content (an id unknown to state never
 * matches) and schedule, one to one (files in key order take orphans in createdAt/id order, so
 * two identical files adopt two identical posts, a third creates); then what the file is in a form
 * the service may keep it in, where what is not certain is held (`matchTidiedAdoptions`).
 */
export function matchAdoptions(newPosts: readonly DesiredPost[], live: LivePostsById, context: PlanContext, chosen: ReadonlyMap<string, string> = new Map()): Adoptions {
  const adopted = new Map<string, { live: Post; how: AdoptHow }>();
  const diagnostics: Diagnostic[] = [];
  if (newPosts.length === 0) return { adopted, held: new Map(), diagnostics };
  const candidates = orphans(live, context.state, context);
  const taken = new Set<Post>();
  const sorted = [...newPosts].sort((a, b) => compareText(a.key, b.key));
  for (const post of sorted) {
    const postId = chosen.get(post.key);
    if (postId === undefined) continue;
    const found = candidates.find((live) => live.id === postId && !taken.has(live));
    if (found) {
      taken.add(found);
      adopted.set(post.key, { live: found, how: 'chosen' });
    } else {
      diagnostics.push({ severity: 'warning', code: 'adopt-choice-unavailable', file: post.file, message: `--adopt ${post.key}=${postId}: no draft or scheduled remote post with that id is free to adopt (it is owned by another state entry, not editable, or not on the remote); not adopted` });
    }
  }
  // Each orphan is hashed once, without its options; files take the oldest orphan of their bucket
  // that is exactly them, options they leave to the service aside (`isLeftToService`).
  const byHash = new Map<string, Post[]>();
  for (const live of candidates) {
    if (taken.has(live)) continue;
    const hash = withoutOptionsHash(context.shapeOf(live));
    byHash.set(hash, [...(byHash.get(hash) ?? []), live]);
  }
  const unmatched: DesiredPost[] = [];
  for (const post of sorted) {
    if (adopted.has(post.key)) continue;
    const bucket = byHash.get(withoutOptionsHash(post.shape)) ?? [];
    const index = bucket.findIndex((live) => isLeftToService(context.shapeOf(live), post.shape, post.shapeHash));
    const exact = index < 0 ? undefined : bucket.splice(index, 1)[0];
    if (exact) {
      taken.add(exact);
      adopted.set(post.key, { live: exact, how: 'unowned-match' });
    } else {
      unmatched.push(post);
    }
  }
  const tidied = matchTidiedAdoptions(unmatched, candidates.filter((live) => !taken.has(live)), context);
  for (const [key, live] of tidied.adopted) adopted.set(key, { live, how: 'tidied-match' });
  return { adopted, held: tidied.held, diagnostics };
}

/** Why a held file is blocked, with its candidates and the commands that decide. */
export function heldChange(post: DesiredPost, held: HeldAdoption, context: Pick<PlanContext, 'shapeOf'>): BlockedChange {
  const candidates = held.candidates.map((live) => ({ postId: live.id, status: live.status, createdAt: live.createdAt, differs: fieldNames(diffShapes(context.shapeOf(live), post.shape)) }));
  return {
    action: 'blocked',
    reason: held.reason,
    key: post.key,
    file: post.file,
    postId: null,
    desired: post.shape,
    details: [{ code: held.reason, candidates }, { code: 'adopt-hint', key: post.key }],
  };
}

/**
 * The adopt change: no API call, the state records the post and the applied hash, and the media
 * records of its media the state does not know (matched by content, so the file's sha256 is the
 * remote media's), so they are never uploaded again.
 */
export function adoptChange(post: DesiredPost, live: Post, context: Pick<PlanContext, 'state' | 'shapeOf'>, how: AdoptHow = 'unowned-match'): AdoptChange {
  const { state } = context;
  const mediaRecords = new Map<string, AdoptedMedia>();
  // By content, not by place: a service may answer media in its own order.
  const liveMedia = context.shapeOf(live).media;
  post.media.forEach((media) => {
    const remote = live.media[liveMedia.indexOf(media.sha256)];
    if (remote === undefined || state.media[media.sha256] !== undefined || mediaRecords.has(media.sha256)) return;
    mediaRecords.set(media.sha256, { sha256: media.sha256, mediaId: remote.id, sizeBytes: media.sizeBytes, contentType: media.contentType || remote.contentType });
  });
  return {
    action: 'adopt',
    reason: how,
    key: post.key,
    file: post.file,
    postId: live.id,
    desired: post.shape,
    liveUpdatedAt: live.updatedAt,
    observedHash: shapeHash(context.shapeOf(live)),
    stateOnly: true,
    ...(mediaRecords.size === 0 ? {} : { mediaRecords: [...mediaRecords.values()] }),
    ...(how === 'chosen' ? { asFound: true as const } : sourcesOf(post)),
    details: [{ code: 'adopted', how, status: live.status }],
  };
}
