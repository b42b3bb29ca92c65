import type { Post } from '../api/types.js';
import type { PostDerived, PostIdentity } from '../cache/post-derived.js';
import type { UnchangedPost } from '../content/types.js';
import type { KeptPost, ModelPost, Slot } from './model.js';
import { cardThumbnails, type PostCard } from './post-card.js';

/**
 * A post's entry of the last page `calendar` wrote, as `.postsync/cache` keeps it
 * (RunCache.calendarEntries): the entry's text, and what the next calendar needs to place the post
 * and to know the text still holds. An entry is made from the post's card (checked by the cache:
 * same file, fingerprint and shape hash, under the same card context and thumbnail folder) and
 * from its remote post (`live`); the plan left the post alone and its file had no problem.
 */
export interface KeptEntry {
  key: string;
  file: string;
  shapeHash: string;
  /** What the entry took from the remote post (`liveFacts`): it is kept only while they are the same. */
  live: string;
  slot: Slot | null;
  ready: boolean;
  /** The accounts its content targets: the page's legend lists every account a post uses. */
  accounts: string[];
  /** Its images: the name the page gives each (under its folder) → the project file. */
  thumbnails: [string, string][];
  /** The ModelPost as the page holds it. */
  text: string;
}

/** Where the entries are kept between calendars. */
export type EntryStore = Pick<PostDerived<KeptEntry>, 'get' | 'keep'>;

/** A post shown from its kept entry, with what the model takes from it besides. */
export interface KeptShown {
  post: KeptPost;
  accounts: readonly string[];
  thumbnails: readonly [string, string][];
  /** Its remote post (the accounts' handles come from it). */
  live: Post | undefined;
}

/** Names what kept entries depend on besides their posts: the cards' context and where the page finds its thumbnails. */
export function entriesContext(cardContext: string, mediaPrefix: string): string {
  return JSON.stringify({ cardContext, mediaPrefix });
}

/**
 * What a page entry takes from the remote post, as one string: its status, then each target's
 * status and error, then each media file's poster frame, in the remote's order. The accounts of
 * the targets and the media files themselves are left out: they are the post's own (its card),
 * and a remote post that has others differs from its file, so the plan changes it and no entry
 * is kept for it.
 */
export function liveFacts(live: Post | undefined): string {
  if (live === undefined) return '';
  let facts = String(live.status);
  for (const target of live.targets) facts += target.error === undefined ? `|${target.status}` : `|${target.status} ${JSON.stringify(target.error)}`;
  for (const media of live.media) facts += `|${typeof media.posterUrl === 'string' ? media.posterUrl : '-'}`;
  return facts;
}

/** The kept entry of `post` when its text still holds for the post and its remote post, else undefined. */
export function keptShown(store: EntryStore, post: PostIdentity, live: Post | undefined): KeptShown | undefined {
  const entry = store.get(post);
  if (entry === undefined || entry.live !== liveFacts(live)) return undefined;
  const shown: KeptPost = { key: entry.key, file: entry.file, slot: entry.slot, previous: null, draft: entry.slot === null, ready: entry.ready, status: live?.status ?? null, overlay: null, change: null, diagnostics: [], text: entry.text };
  return { post: shown, accounts: entry.accounts, thumbnails: entry.thumbnails, live };
}

/**
 * Keeps the entry a page wrote for `post` (`text`), when a later calendar may show it as it is:
 * the plan leaves the post alone and its file has no problem. `card` is the card it was made from.
 */
export function keepEntry(store: EntryStore, entry: { post: ModelPost; text: string; card: PostCard; fingerprint: string; live: Post | undefined; mediaPrefix: string }): void {
  const { post, card } = entry;
  if (post.overlay !== null || post.change !== null || post.diagnostics.length > 0 || post.file !== card.file) return;
  const kept: KeptEntry = { key: post.key, file: card.file, shapeHash: card.shapeHash, live: liveFacts(entry.live), slot: post.slot, ready: post.ready, accounts: card.accounts, thumbnails: cardThumbnails(card, entry.mediaPrefix), text: entry.text };
  store.keep({ key: post.key, file: card.file, fingerprint: entry.fingerprint, shapeHash: card.shapeHash }, kept);
}

/**
 * The posts of unchanged files that a calendar shows from their kept entries, and the others
 * (`rest`, which need their cards). A post the plan changes, or whose file has a problem, is
 * never shown from a kept entry.
 */
export function splitKept(input: { store: EntryStore; unchanged: readonly UnchangedPost[]; changed: ReadonlySet<string>; troubled: ReadonlySet<string>; liveOf: (key: string) => Post | undefined }): { shown: KeptShown[]; rest: UnchangedPost[] } {
  const shown: KeptShown[] = [];
  const rest: UnchangedPost[] = [];
  for (const post of input.unchanged) {
    const kept = input.changed.has(post.key) || input.troubled.has(post.file) ? undefined : keptShown(input.store, post, input.liveOf(post.key));
    if (kept === undefined) rest.push(post);
    else shown.push(kept);
  }
  return { shown, rest };
}
