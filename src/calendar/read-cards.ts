import type { Capabilities } from '../api/types.js';
import type { DesiredPost } from '../content/types.js';
import type { MediaMemo } from '../content/media-memo.js';
import { probePostMedia } from '../media/media-memo.js';
import type { MediaProbe } from '../media/probe.js';
import { captionsOf, postCard, type PostCard } from './post-card.js';
import { zonePlacer } from './zone-placer.js';

/** What the cards of a calendar are made with, besides its posts. */
export interface CardSettings {
  timezone: string;
  capabilities: ReadonlyMap<string, Capabilities>;
  /** What media files hold: the run's memo reuses what content reading probed. */
  media: Pick<MediaMemo<MediaProbe>, 'probe'>;
}

/** The cards of posts, in their order. */
export async function postCards(posts: readonly DesiredPost[], settings: CardSettings): Promise<PostCard[]> {
  const context = { place: zonePlacer(settings.timezone), captions: captionsOf(settings.capabilities), probes: await probePostMedia(posts, settings.media.probe) };
  return posts.map((post) => postCard(post, context));
}
