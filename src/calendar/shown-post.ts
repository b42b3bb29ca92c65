import type { CalendarPost, ModelPost, PostContent } from './model.js';

/**
 * A post as shown: its content decoded, with each target's remote status and each media file's
 * picture. The page makes one of each post it shows (it runs in the browser too: no Node.js
 * here); the feed and the pull-request diff, of each post they list.
 */
export function shownPost(post: ModelPost): CalendarPost {
  const { content, statuses, pictures, ...shown } = post;
  const { text, targets, media } = JSON.parse(content) as PostContent;
  return {
    ...shown,
    text,
    targets: targets.map((target, index) => ({ ...target, ...(statuses[index] ?? { status: null }) })),
    media: media.map((file, index) => ({ ...file, src: pictures[index] ?? null })),
  };
}
