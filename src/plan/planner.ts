import type { DesiredPost } from '../content/types.js';
import type { ProjectState } from '../state/types.js';
import { accountAvailability } from './account-availability.js';
import { adoptChange, heldChange, matchAdoptions } from './adopt-matches.js';
import { exceptForeign, NO_FOREIGN_OWNERS } from './foreign-owners.js';
import { matchPendingCreates } from './pending-matches.js';
import { planContext } from './plan-context.js';
import { planDesiredPost } from './desired-changes.js';
import { compareText } from '../text/ordering.js';
import { matchRenames, moveChange, removedPendingChange, removedPostChange } from './removed-changes.js';
import { ACTIONS, type Action, type Change, type MediaUpload, type Plan, type PlanInput, type Summary } from './types.js';

/** Order of changes in a plan: what will happen first is read first. */
const ACTION_ORDER: readonly Action[] = ['create', 'adopt', 'update', 'move', 'unschedule', 'delete', 'blocked', 'noop'];

/**
 * Pairs desired posts, the state section and the live posts by key, and decides one change per
 * key. Pure: the same input gives the same plan. Remote posts not in state are never touched; a
 * new file that is exactly such a post adopts it instead of creating a twin (`matchAdoptions`).
 * The guards come after (`planPosts`).
 */
export function createPlan(input: PlanInput): Plan {
  const { desired, remote } = input;
  const state = input.state.section;
  const now = input.now.toISOString();
  // Adopt and a pending create's match choose among the posts no other calendar records.
  const free = exceptForeign(remote.live, input.state.foreignOwners ?? NO_FOREIGN_OWNERS);
  const lookups = { state, live: remote.live, accounts: accountAvailability(remote.capabilities), prune: input.prune, now, desired: desired.posts };
  const context = planContext(
    { ...lookups, ...(remote.mediaSha256s === undefined ? {} : { mediaSha256s: remote.mediaSha256s }), ...(input.choices === undefined ? {} : { choices: input.choices }) },
    { pendingPosts: (shapes) => matchPendingCreates(state, free, shapes) },
  );
  const desiredKeys = new Set(desired.posts.map((post) => post.key));
  const removedKeys = Object.keys(state.posts).filter((key) => !desiredKeys.has(key));
  const newPosts = desired.posts.filter((post) => !state.posts[post.key] && !state.pending[post.key]);
  const renames = matchRenames(removedKeys, newPosts, context);
  const renamedTo = new Set([...renames.values()].map((post) => post.key));
  const adoptions = matchAdoptions(newPosts.filter((post) => !renamedTo.has(post.key)), free, context, input.choices?.adopt);

  const changes: Change[] = [];
  for (const post of desired.posts) {
    const adopted = adoptions.adopted.get(post.key);
    const held = adoptions.held.get(post.key);
    if (adopted) changes.push(adoptChange(post, adopted.live, context, adopted.how));
    else if (held && !context.recreates(post.key)) changes.push(heldChange(post, held, context));
    else if (!renamedTo.has(post.key)) changes.push(planDesiredPost(post, context));
  }
  for (const key of removedKeys) {
    const record = state.posts[key]!;
    const renamed = renames.get(key);
    changes.push(renamed ? moveChange(key, record, renamed, context) : removedPostChange(key, record, context));
  }
  for (const [key, pending] of Object.entries(state.pending)) {
    if (!desiredKeys.has(key) && !state.posts[key]) changes.push(removedPendingChange(key, pending, context));
  }

  changes.sort(compareChanges);
  return {
    formatVersion: 1,
    createdAt: now,
    target: input.project,
    stateHash: input.state.hash,
    prune: input.prune,
    only: null,
    uploads: mediaUploads(changes, desiredByKey(desired.posts), state),
    changes,
    summary: summarize(changes),
    diagnostics: [...desired.contentDiagnostics, ...desired.checkDiagnostics, ...adoptions.diagnostics],
  };
}

/** The desired posts by key. */
export function desiredByKey(posts: readonly DesiredPost[]): Map<string, DesiredPost> {
  return new Map(posts.map((post) => [post.key, post]));
}

/** The order of changes in a plan. */
export function compareChanges(a: Change, b: Change): number {
  return (
    ACTION_ORDER.indexOf(a.action) - ACTION_ORDER.indexOf(b.action) ||
    compareText(a.key, b.key) ||
    compareText(a.fromKey ?? '', b.fromKey ?? '')
  );
}

/**
 * Media the executed creates and updates need that state has no media id for, once per sha256.
 * Blocked and noop posts upload nothing, and a media an adopt records (adopts run first) is not uploaded.
 */
export function mediaUploads(changes: readonly Change[], desired: ReadonlyMap<string, DesiredPost>, state: ProjectState): MediaUpload[] {
  const uploads = new Map<string, MediaUpload>();
  // Only adopts carry `mediaRecords`.
  const adopted = new Set(changes.flatMap((change) => (change.mediaRecords ?? []).map((media) => media.sha256)));
  for (const change of changes) {
    if (change.action !== 'create' && change.action !== 'update') continue;
    for (const media of desired.get(change.key)?.media ?? []) {
      if (state.media[media.sha256] || adopted.has(media.sha256)) continue;
      const upload = uploads.get(media.sha256);
      if (upload) {
        if (!upload.usedBy.includes(change.key)) upload.usedBy.push(change.key);
        continue;
      }
      const { sha256, path, sizeBytes, contentType, kind } = media;
      uploads.set(sha256, { sha256, path, sizeBytes, contentType, kind, usedBy: [change.key] });
    }
  }
  return [...uploads.values()]
    .map((upload) => ({ ...upload, usedBy: upload.usedBy.sort(compareText) }))
    .sort((a, b) => compareText(a.path, b.path) || compareText(a.sha256, b.sha256));
}

/** Counts per action. */
export function summarize(changes: readonly Change[]): Summary {
  const summary = Object.fromEntries(ACTIONS.map((action) => [action, 0])) as Summary;
  for (const change of changes) summary[change.action] += 1;
  return summary;
}
