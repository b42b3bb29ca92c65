import type { Media, Post } from '../api/types.js';
import type { DesiredPost, PostShape } from '../content/types.js';
import type { ProjectState } from '../state/types.js';
import { orphans } from './adopt-matches.js';
import { tidiedHash } from './tidied-shape.js';
import { planContext } from './plan-context.js';
import type { LivePostsById } from './types.js';

/**
 * Everything of a shape but its media and option values, in the form a service may keep it
 * (`tidiedShape`): what must already match before media are worth fetching (options a file leaves
 * unset may hold the service's defaults; the adopt itself then checks them).
 */
const withoutMedia = (shape: PostShape): string => tidiedHash({ ...shape, media: [], targets: shape.targets.map((target) => ({ ...target, options: {} })) });

/** A live media the state has no record of (`liveShape` writes it `id:<id>`). */
const isUnknown = (sha256: string): boolean => sha256.startsWith('id:');

/**
 * Whether `orphan` can be `post` once its unknown media are known by content: the same number of
 * media, each known one among the post's (in any order: a service may answer media in its own).
 * An unknown one may be any file: its `kind` is the service's word (the spec leaves the list open,
 * a video may be a `clip`), so it never rules a match out; only its content, once fetched, does.
 */
function couldBe(post: DesiredPost, shape: PostShape): boolean {
  if (shape.media.length !== post.media.length) return false;
  const wanted = post.media.map((media) => media.sha256);
  return shape.media.every((sha256) => {
    if (isUnknown(sha256)) return true;
    const index = wanted.indexOf(sha256);
    if (index >= 0) wanted.splice(index, 1);
    return index >= 0;
  });
}

/**
 * The remote media worth fetching so that new posts (no state entry, no pending create) can
 * adopt the orphan posts they are (`matchAdoptions` knows media only by content): media the state
 * has no record of, used by an orphan that is some new post with media in every other field
 * (content, overrides, targets, options, schedule) and in its known media. Once per media id, in
 * orphan order. None when no new post has media, so such a plan fetches nothing. Pure.
 */
export function orphanMediaToLearn(input: { newPosts: readonly DesiredPost[]; state: ProjectState; live: LivePostsById }): Media[] {
  const byRest = new Map<string, DesiredPost[]>();
  for (const post of input.newPosts) {
    if (post.media.length === 0) continue;
    const rest = withoutMedia(post.shape);
    byRest.set(rest, [...(byRest.get(rest) ?? []), post]);
  }
  if (byRest.size === 0) return [];
  const context = planContext({ state: input.state, live: input.live, accounts: new Map(), prune: false });
  const wanted = new Map<string, Media>();
  for (const orphan of orphans(input.live, input.state, context)) {
    const shape = context.shapeOf(orphan);
    if (!shape.media.some(isUnknown)) continue;
    if (!byRest.get(withoutMedia(shape))?.some((post) => couldBe(post, shape))) continue;
    shape.media.forEach((sha256, index) => {
      const media = orphan.media[index]!;
      if (isUnknown(sha256) && !wanted.has(media.id)) wanted.set(media.id, media);
    });
  }
  return [...wanted.values()];
}
