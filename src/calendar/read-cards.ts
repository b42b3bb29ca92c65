import type { Capabilities } from '../api/types.js';
import type { RunCache } from '../cache/run-cache.js';
import type { DesiredPost, UnchangedPost } from '../content/types.js';
import { probePostMedia, type ProbeMedia } from '../media/probe-cache.js';
import { sortByKey } from '../text/ordering.js';
import { captionsOf, cardContextKey, postCard, type PostCard } from './post-card.js';
import { zonePlacer } from './zone-placer.js';

/** What the cards of a calendar are made with, besides its posts. */
export interface CardSettings {
  timezone: string;
  capabilities: ReadonlyMap<string, Capabilities>;
  /** Probes media files (a cache's `probe` reuses what content reading probed). */
  probe: ProbeMedia;
}

/**
 * Where cards are kept from one calendar to the next, by card context (`cardContextKey`):
 * `.postsync/cache` (a RunCache), or the memory of a `watch --calendar` (cardMemo).
 */
export type CardStore = Pick<RunCache, 'calendarCards'>;

/**
 * The cards of every valid post, by key. A post whose card `kept` holds (made from the same file,
 * fingerprint and shape hash, under the same time zone and caption rules) gets that card: an
 * unchanged file is then not read at all. The others are read in full, and their cards kept for
 * next time.
 */
export async function readCards(
  input: CardSettings & {
    posts: readonly DesiredPost[];
    unchanged: readonly UnchangedPost[];
    readInFull: (posts: readonly UnchangedPost[]) => Promise<DesiredPost[]>;
    kept?: CardStore;
  },
): Promise<PostCard[]> {
  // No post to make a card of (a calendar shown from kept entries): the cards' file is not even read.
  if (input.unchanged.length === 0 && input.posts.length === 0) return [];
  const captions = captionsOf(input.capabilities);
  const store = input.kept?.calendarCards<PostCard>(cardContextKey(input.timezone, captions));
  const cards: PostCard[] = [];
  const unread: UnchangedPost[] = [];
  for (const post of input.unchanged) {
    const card = store?.get(post);
    if (card === undefined) unread.push(post);
    else cards.push(card);
  }
  // A post read in full has a kept card too when its file was saved again unchanged, and in watch mode (every file is read in full).
  const uncarded: DesiredPost[] = [];
  for (const post of input.posts) {
    const card = store?.get(post);
    if (card === undefined) uncarded.push(post);
    else cards.push(card);
  }
  const posts = unread.length === 0 ? uncarded : [...uncarded, ...(await input.readInFull(unread))];
  for (const [index, card] of (await postCards(posts, input)).entries()) {
    store?.keep(posts[index]!, card);
    cards.push(card);
  }
  return sortByKey(cards);
}

/** The cards of posts read in full, in their order. */
export async function postCards(posts: readonly DesiredPost[], settings: CardSettings): Promise<PostCard[]> {
  const context = { place: zonePlacer(settings.timezone), captions: captionsOf(settings.capabilities), probes: await probePostMedia(posts, settings.probe) };
  return posts.map((post) => postCard(post, context));
}
