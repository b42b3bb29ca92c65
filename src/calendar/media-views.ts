import { join } from 'node:path';
import type { Post } from '../api/types.js';
import type { TargetState } from '../state/types.js';
import type { CalendarModel } from './model.js';
import type { PostCard } from './post-card.js';

/**
 * Poster frames of the cards' videos as the API has them, by sha256 (the state maps media ids to
 * files). `live`: the remote post of each card, by key. Only https URLs: a page never loads
 * anything else from the remote.
 */
export function remotePosters(cards: readonly PostCard[], live: ReadonlyMap<string, Post>, state: TargetState | null): Map<string, string> {
  const posters = new Map<string, string>();
  if (state === null) return posters;
  let shaOf: Map<string, string> | undefined;
  for (const card of cards) {
    const post = live.get(card.key);
    if (post === undefined || !card.media.some((media) => media.video !== undefined)) continue;
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
export function thumbnailFiles(model: CalendarModel, options: { root: string; mediaPrefix: string }): Map<string, string> {
  const files = new Map<string, string>();
  for (const post of model.posts) {
    for (const media of post.media) {
      if (media.kind === 'image' && media.src?.startsWith(options.mediaPrefix) === true && !files.has(media.src)) files.set(media.src, join(options.root, media.path));
    }
  }
  return files;
}
