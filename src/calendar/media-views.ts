import { isInside } from '../text/paths.js';
import { join } from 'node:path';
import type { Post } from '../api/types.js';
import type { ProjectState } from '../state/types.js';
import type { CalendarModel } from './model.js';
import { cardThumbnails, type PostCard } from './post-card.js';

/**
 * Poster frames of the cards' videos as the API has them, by sha256 (the state maps media ids to
 * files). `lives`: the remote post of each card, in the cards' order. Only https URLs: a page
 * never loads anything else from the remote.
 */
export function remotePosters(cards: readonly PostCard[], lives: readonly (Post | undefined)[], state: ProjectState | null): Map<string, string> {
  const posters = new Map<string, string>();
  if (state === null) return posters;
  let shaOf: Map<string, string> | undefined;
  for (const [index, card] of cards.entries()) {
    const post = lives[index];
    if (post === undefined || !card.media.some((media) => 'video' in media)) continue;
    shaOf ??= new Map(Object.entries(state.media).map(([sha256, record]) => [record.mediaId, sha256]));
    for (const media of post.media) {
      const sha256 = shaOf.get(media.id);
      if (sha256 !== undefined && typeof media.posterUrl === 'string' && media.posterUrl.startsWith('https://')) posters.set(sha256, media.posterUrl);
    }
  }
  return posters;
}

/**
 * The thumbnails a model shows, each once: their name as the page refers to it (under
 * `mediaPrefix`) → the project file (under `root`). The static page copies them next to itself,
 * the `watch --calendar` server serves them.
 */
export function thumbnailFiles(model: CalendarModel, cards: readonly PostCard[], options: { root: string; mediaPrefix: string }): Map<string, string> {
  // Without a range, every card is shown.
  const shown = model.range.from === null && model.range.to === null ? null : new Set(model.posts.map((post) => post.key));
  const files = new Map<string, string>();
  const add = (name: string, path: string) => {
    const file = join(options.root, path);
    // A card may come from the cache: a path that leaves the project is never copied or served.
    if (!files.has(name) && isInside(options.root, file)) files.set(name, file);
  };
  for (const card of cards) {
    if (shown !== null && !shown.has(card.key)) continue;
    for (const [name, path] of cardThumbnails(card, options.mediaPrefix)) add(name, path);
  }
  return files;
}
