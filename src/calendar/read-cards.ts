import type { Capabilities } from '../api/types.js';
import type { DesiredPost } from '../content/types.js';
import { probePostMedia, type ProbeMedia } from '../media/probe-cache.js';
import { captionsOf, postCard, type PostCard } from './post-card.js';
import { zonePlacer } from './zone-placer.js';

/** What the cards of a calendar are made with, besides its posts. */
export interface CardSettings {
  timezone: string;
  capabilities: ReadonlyMap<string, Capabilities>;
  /** Probes media files (a cache's `probe` reuses what content reading probed). */
  probe: ProbeMedia;
}

/** The cards of posts, in their order. */
export async function postCards(posts: readonly DesiredPost[], settings: CardSettings): Promise<PostCard[]> {
  const context = { place: zonePlacer(settings.timezone), captions: captionsOf(settings.capabilities), probes: await probePostMedia(posts, settings.probe) };
  return posts.map((post) => postCard(post, context));
}
