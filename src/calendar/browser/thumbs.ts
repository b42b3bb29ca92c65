import type { CalendarPost } from '../model.js';
import { withPageToken } from './address.js';
import { h } from './dom.js';

/**
 * The picture a card shows: its post's first media file that has one (an image copied next to the
 * page or served by `watch --calendar`, or a video's poster frame), lazy-loaded so a month of
 * cards fetches only what is on screen. None for a post without such a picture: a remote media id
 * is never shown as text on a card.
 */
export function cardThumbnail(post: CalendarPost): HTMLElement | null {
  const media = post.media.find((file) => file.src !== null);
  if (media === undefined || media.src === null) return null;
  const image = h('img', { class: 'card-thumb', src: withPageToken(media.src), alt: '', loading: 'lazy', decoding: 'async', ...(media.alt === undefined ? {} : { title: media.alt }) });
  // A picture that cannot be loaded (a moved file, an expired poster URL) leaves the card as it would be without one.
  image.addEventListener('error', () => image.remove());
  return image;
}
