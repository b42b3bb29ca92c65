/**
 * Whether a post never leaves this status once it reaches it: postsync neither edits nor deletes
 * it again. The spec names only `published` past `scheduled` and leaves the list open; any other
 * status (named or not) is not final, so a post in it is read again on every plan.
 */
export function isFinalStatus(status: string): boolean {
  return status === 'published';
}
