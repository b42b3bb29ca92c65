import type { UnconfirmedRecords } from '../state/types.js';
import type { ProjectState } from '../state/types.js';
import type { BlockedChange, Change, Plan, ReasonOf } from './types.js';

/**
 * How many changes of the plan are blocked because a state record they rest on is not to be
 * trusted: it has no valid seal, or it shares its post with another record.
 */
export function unconfirmedBlocked(plan: Pick<Plan, 'changes'>): number {
  return plan.changes.filter((change) => change.action === 'blocked' && (change.reason === 'unconfirmed-record' || change.reason === 'shared-record')).length;
}

/** No record is unconfirmed. */
export const NONE_UNCONFIRMED: UnconfirmedRecords = { posts: new Set(), pending: new Set(), media: new Set(), uploads: new Set() };

/**
 * The state as the planner may trust it: media and upload records without their seal are left
 * out, so their media are uploaded again rather than a post being pointed at a media id someone
 * else chose. Post records and pending creates stay, so that no twin is created or adopted for
 * them; `blockUnconfirmed` blocks every change that rests on one.
 */
export function trustedState(state: ProjectState, unconfirmed: UnconfirmedRecords): ProjectState {
  if (unconfirmed.media.size === 0 && unconfirmed.uploads.size === 0) return state;
  const keep = <T>(records: Record<string, T>, left: ReadonlySet<string>) => Object.fromEntries(Object.entries(records).filter(([key]) => !left.has(key)));
  return { ...state, media: keep(state.media, unconfirmed.media), uploads: keep(state.uploads, unconfirmed.uploads) };
}

/**
 * A change whose post record or pending create (of its key, or of the key a move comes from) has
 * no valid seal is blocked: such a record may point at a post of another calendar, so updating,
 * unscheduling, deleting or resending it could overwrite or delete what this repository does not own.
 */
export function blockUnconfirmed(change: Change, unconfirmed: UnconfirmedRecords): Change {
  return unconfirmedBlock(change, unconfirmed, 'unconfirmed-record') ?? change;
}

function isUnconfirmed(key: string | undefined, unconfirmed: UnconfirmedRecords): key is string {
  return key !== undefined && (unconfirmed.posts.has(key) || unconfirmed.pending.has(key));
}

/** `change` blocked with `reason` if it rests on a record of `unconfirmed`; undefined if it does not. */
function unconfirmedBlock(change: Change, unconfirmed: UnconfirmedRecords, reason: ReasonOf<'blocked'>): BlockedChange | undefined {
  const key = isUnconfirmed(change.fromKey, unconfirmed) ? change.fromKey : isUnconfirmed(change.key, unconfirmed) ? change.key : undefined;
  if (key === undefined) return undefined;
  const { fromKey, desired, liveUpdatedAt, occurrence } = change;
  return {
    action: 'blocked',
    reason,
    key: change.key,
    file: change.file,
    postId: change.postId,
    details: [{ code: 'unconfirmed-record', key, postId: change.postId, pending: !unconfirmed.posts.has(key) }],
    ...(fromKey === undefined ? {} : { fromKey }),
    ...(desired === undefined ? {} : { desired }),
    ...(liveUpdatedAt === undefined ? {} : { liveUpdatedAt }),
    ...(occurrence === undefined ? {} : { occurrence }),
  };
}

/**
 * Post records that share their post with another record, by key → every key on that post. An
 * apply never leaves two records on one post (a move re-keys the record); such a pair comes from
 * a record put back from an older state, each still sealed, and acting on the one whose file is
 * gone would unschedule or delete the post the other key owns.
 */
export function sharedPostRecords(state: Pick<ProjectState, 'posts'>): ReadonlyMap<string, readonly string[]> {
  const byPost = new Map<string, string[]>();
  for (const [key, { postId }] of Object.entries(state.posts)) {
    const keys = byPost.get(postId);
    if (keys === undefined) byPost.set(postId, [key]);
    else keys.push(key);
  }
  const shared = new Map<string, readonly string[]>();
  for (const keys of byPost.values()) if (keys.length > 1) for (const key of keys) shared.set(key, keys);
  return shared;
}

/** A change resting on a post record that shares its post with another (`sharedPostRecords`) is blocked. */
export function blockShared(change: Change, shared: ReadonlyMap<string, readonly string[]>): Change {
  if (change.action === 'blocked' || shared.size === 0) return change;
  const keys = [change.fromKey, change.key].map((key) => (key === undefined ? undefined : shared.get(key))).find((found) => found !== undefined);
  if (keys === undefined) return change;
  const block = unconfirmedBlock(change, { ...NONE_UNCONFIRMED, posts: new Set(keys) }, 'shared-record');
  return block === undefined ? change : { ...block, details: [{ code: 'shared-record', keys: [...keys], postId: change.postId }] };
}
