/**
 * Statuses a post never leaves once it reaches them: postsync neither edits nor deletes it again.
 * The spec names only `published` past `scheduled` and leaves the list open; any other status
 * (named or not) is not final, so a post in it is read again on every plan.
 */
const FINAL_STATUSES = new Set(['published']);

export function isFinalStatus(status: string): boolean {
  return FINAL_STATUSES.has(status);
}
