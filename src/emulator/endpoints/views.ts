import type { Account, Media, Post } from '../../api/types.js';
import type { AccountRecord, StoredMedia, StoredPost } from '../store/model.js';
import type { Project } from '../store/store.js';

/** Storage path of the placeholder poster of a video (the emulator does not decode video frames). */
export const posterKey = (mediaId: string): string => `posters/${mediaId}.png`;

/**
 * The wire Media. `url` is a public read URL on the emulator's storage (it answers once the
 * upload is completed); `sourceAvailable` is true once completed; videos carry a `posterUrl`.
 */
export function mediaView(media: StoredMedia, origin: string): Media {
  const view: Media = {
    id: media.id,
    kind: media.kind,
    url: `${origin}/_storage/${media.objectKey}`,
    sourceAvailable: media.state === 'completed',
    contentType: media.contentType,
  };
  if (media.kind === 'video') view.posterUrl = `${origin}/_storage/${posterKey(media.id)}`;
  if (media.width !== undefined) view.width = media.width;
  if (media.height !== undefined) view.height = media.height;
  if (media.durationSeconds !== undefined) view.durationSeconds = media.durationSeconds;
  return view;
}

export function postView(post: StoredPost, project: Project, origin: string): Post {
  const { mediaIds, ...rest } = post;
  const media: Media[] = [];
  for (const id of mediaIds) {
    const stored = project.media.get(id);
    if (stored) media.push(mediaView(stored, origin));
  }
  return { ...rest, media };
}

export function accountView(account: AccountRecord): Account {
  return { id: account.id, platform: account.platform, handle: account.handle, status: account.status };
}
