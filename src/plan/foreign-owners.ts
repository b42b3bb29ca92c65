import type { Change, LivePostsById } from './types.js';

/**
 * The posts other calendars of the same repository record in their state for the same API
 * project: post id → that calendar's folder (relative to the repository, `.` for its top). Such a
 * post is never free for this calendar: no new file adopts it, no interrupted create takes it,
 * and no change of this calendar acts on it.
 */
export type ForeignOwners = ReadonlyMap<string, string>;

export const NO_FOREIGN_OWNERS: ForeignOwners = new Map();

/**
 * The listing without the posts other calendars record: what adopt, a pending create's match and
 * the media learned for adopting choose from. The posts this calendar's own records name stay
 * reachable through `live` itself.
 */
export function exceptForeign(live: LivePostsById, foreign: ForeignOwners): LivePostsById {
  if (foreign.size === 0) return live;
  const briefs = new Map([...live.briefs].filter(([id]) => !foreign.has(id)));
  return { get: (id) => (foreign.has(id) ? undefined : live.get(id)), briefs };
}

/**
 * A change on a post another calendar records is blocked, naming that calendar: a state record
 * copied from it (or a post both states name) must not let this calendar rewrite, unschedule or
 * delete the other's post. Blocked in both calendars, each naming the other.
 */
export function blockForeign(change: Change, foreign: ForeignOwners): Change {
  if (change.action === 'blocked' || change.postId === null) return change;
  const owner = foreign.get(change.postId);
  if (owner === undefined) return change;
  const { fromKey, desired, liveUpdatedAt, occurrence } = change;
  return {
    action: 'blocked',
    reason: 'other-calendar',
    key: change.key,
    file: change.file,
    postId: change.postId,
    details: [{ code: 'other-calendar', postId: change.postId, owner, key: change.key }],
    ...(fromKey === undefined ? {} : { fromKey }),
    ...(desired === undefined ? {} : { desired }),
    ...(liveUpdatedAt === undefined ? {} : { liveUpdatedAt }),
    ...(occurrence === undefined ? {} : { occurrence }),
  };
}
