import { extname } from 'node:path';
import type { DesiredMedia, DesiredPost } from '../content/types.js';
import type { ProbedMedia } from '../media/media-rules.js';
import type { LivePostsById } from '../plan/types.js';
import type { TargetState } from '../state/types.js';
import type { CalendarModel } from './model.js';
import type { MediaView } from './post-entry.js';

const IMAGE_EXTENSIONS: Record<string, string> = { 'image/jpeg': '.jpg', 'image/png': '.png', 'image/webp': '.webp', 'image/gif': '.gif' };

/**
 * Where a page finds its thumbnails. Images get a name of their own under `prefix` (their content
 * hash, so each file is there once however many posts use it); videos show the poster frame the
 * API made, when there is one, else a placeholder with their duration. `files` maps each name handed
 * out to the project file it stands for: the static page copies them next to itself, the
 * `watch --calendar` server serves them.
 */
export class MediaViews {
  readonly #prefix: string;
  readonly #probes: ReadonlyMap<string, ProbedMedia>;
  readonly #posters: ReadonlyMap<string, string>;
  readonly #files = new Map<string, string>();

  constructor(options: { prefix: string; probes: ReadonlyMap<string, ProbedMedia>; posters?: ReadonlyMap<string, string> }) {
    this.#prefix = options.prefix;
    this.#probes = options.probes;
    this.#posters = options.posters ?? new Map();
  }

  view = (media: DesiredMedia): MediaView => {
    const probe = this.#probes.get(media.sha256);
    const facts = {
      ...(probe?.width === undefined ? {} : { width: probe.width }),
      ...(probe?.height === undefined ? {} : { height: probe.height }),
      ...(probe?.durationSeconds === undefined ? {} : { durationSeconds: probe.durationSeconds }),
    };
    if (media.kind !== 'image') return { src: this.#posters.get(media.sha256) ?? null, ...facts };
    const name = `${this.#prefix}${media.sha256.slice(0, 20)}${IMAGE_EXTENSIONS[media.contentType] ?? (extname(media.path).toLowerCase() || '.img')}`;
    this.#files.set(name, media.absolutePath);
    return { src: name, ...facts };
  };

  /** The thumbnails a model shows (name → absolute path of the project file). */
  filesOf(model: CalendarModel): Map<string, string> {
    const used = new Map<string, string>();
    for (const post of model.posts) {
      for (const media of post.media) {
        const file = media.src === null ? undefined : this.#files.get(media.src);
        if (file !== undefined) used.set(media.src!, file);
      }
    }
    return used;
  }
}

/**
 * Poster frames of the posts' videos as the API has them, by sha256 (the state maps media ids to
 * files). Only https URLs: a page never loads anything else from the remote.
 */
export function remotePosters(posts: readonly DesiredPost[], live: LivePostsById | null, state: TargetState | null): Map<string, string> {
  const posters = new Map<string, string>();
  if (live === null || state === null) return posters;
  const shaOf = new Map(Object.entries(state.media).map(([sha256, record]) => [record.mediaId, sha256]));
  for (const post of posts) {
    const record = state.posts[post.key];
    if (record === undefined || !post.media.some((media) => media.kind === 'video')) continue;
    for (const media of live.get(record.postId)?.media ?? []) {
      const sha256 = shaOf.get(media.id);
      if (sha256 !== undefined && typeof media.posterUrl === 'string' && media.posterUrl.startsWith('https://')) posters.set(sha256, media.posterUrl);
    }
  }
  return posters;
}
