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
 * The cards of every valid post, by key. A post of an unchanged file whose card `.postsync/cache`
 * keeps (made from the same file, fingerprint and shape hash, under the same time zone and
 * caption rules) is not read at all; the others are read in full, and their cards kept for next time.
 */
export async function readCards(
  input: CardSettings & {
    posts: readonly DesiredPost[];
    unchanged: readonly UnchangedPost[];
    readInFull: (posts: readonly UnchangedPost[]) => Promise<DesiredPost[]>;
    kept?: RunCache;
  },
): Promise<PostCard[]> {
  const captions = captionsOf(input.capabilities);
  const store = input.kept?.calendarCards<PostCard>(cardContextKey(input.timezone, captions));
  const cards: PostCard[] = [];
  const unread: UnchangedPost[] = [];
  for (const post of input.unchanged) {
    const card = store?.get(post);
    if (card === undefined) unread.push(post);
    else cards.push(card);
  }
  const posts = unread.length === 0 ? input.posts : [...input.posts, ...(await input.readInFull(unread))];
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
