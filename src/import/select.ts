import type { CreatePostBody, Post } from '../api/types.js';
import { canonicalJson } from '../state/hash.js';
import { NO_FOREIGN_OWNERS, type ForeignOwners } from '../plan/foreign-owners.js';
import type { ProjectState } from '../state/types.js';
import { compareTargets, inputOptions } from '../plan/live-shape.js';

/** Statuses imported by default: the only ones postsync can still edit. */
export const EDITABLE_STATUSES: readonly string[] = ['draft', 'scheduled'];

export interface ImportFilter {
  /** Also posts that can no longer be edited (published, failed...). */
  all?: boolean;
  /** Only posts with exactly this status (overrides the default statuses). */
  status?: string;
}

export interface Selection {
  /** Remote posts not owned by this state section and selected by the filter, in listing order. */
  candidates: Post[];
  /** Unowned posts left out by the status filter. */
  filteredOut: Post[];
  /** Unowned posts that are the result of an interrupted create: `postsync apply` completes them (records them as created). */
  pending: { post: Post; key: string }[];
  /** Posts already recorded in state. */
  managed: number;
  /** Posts another calendar of the repository records (`ForeignOwners`), with its folder: never imported here. */
  otherCalendars: { post: Post; folder: string }[];
}

function comparablePayload(body: Pick<CreatePostBody, 'content' | 'targets' | 'mediaIds'>): string {
  const targets = body.targets
    .map((target) => ({ socialAccountId: target.socialAccountId, contentOverride: target.contentOverride ?? null, options: inputOptions(target.options) }))
    .sort(compareTargets);
  return canonicalJson({ content: body.content, targets, mediaIds: body.mediaIds });
}

function postAsPayload(post: Post): string {
  return comparablePayload({
    content: post.content,
    targets: post.targets.map((target) => ({ socialAccountId: target.socialAccountId, contentOverride: target.contentOverride, options: target.options })),
    mediaIds: post.media.map((media) => media.id),
  });
}

/**
 * Which remote posts an import looks at: those not in this state section, nor in another calendar's
 * of the repository (`foreign`: set apart with its folder), with a selected status.
 * A post equal to the payload of a pending create is most likely that create's result (sent, but
 * the run stopped before state was written); adopting it as a new key would give one post two
 * owners, so it is set apart for `postsync apply` to complete.
 */
export function selectForImport(posts: readonly Post[], section: Pick<ProjectState, 'posts' | 'pending'>, filter: ImportFilter, foreign: ForeignOwners = NO_FOREIGN_OWNERS): Selection {
  const owned = new Set(Object.values(section.posts).map((record) => record.postId));
  const pendingByPayload = new Map(Object.entries(section.pending).map(([key, pending]) => [comparablePayload(pending.payload), key]));
  const accepts = (status: string) => (filter.status !== undefined ? status === filter.status : filter.all === true || EDITABLE_STATUSES.includes(status));
  const selection: Selection = { candidates: [], filteredOut: [], pending: [], managed: 0, otherCalendars: [] };
  for (const post of posts) {
    if (owned.has(post.id)) {
      selection.managed++;
      continue;
    }
    const folder = foreign.get(post.id);
    if (folder !== undefined) {
      selection.otherCalendars.push({ post, folder });
      continue;
    }
    const pendingKey = pendingByPayload.size > 0 ? pendingByPayload.get(postAsPayload(post)) : undefined;
    if (pendingKey !== undefined) selection.pending.push({ post, key: pendingKey });
    else if (accepts(post.status)) selection.candidates.push(post);
    else selection.filteredOut.push(post);
  }
  return selection;
}
