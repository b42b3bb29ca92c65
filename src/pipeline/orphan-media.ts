import pLimit from 'p-limit';
import { downloadProblem, fetchMediaSource } from '../api/media-source.js';
import type { Media } from '../api/types.js';
import type { DesiredPost } from '../content/types.js';
import { orphanMediaToLearn } from '../plan/adopt-media.js';
import type { LivePostsById } from '../plan/types.js';
import type { ProjectState } from '../state/types.js';

/** Parallel fetches: enough to overlap round trips, gentle on the service's storage. */
const FETCH_CONCURRENCY = 4;

/**
 * The content (sha256) of remote media the state does not know, so that a new file can adopt the
 * orphan post it is even when the state was lost: the planner knows media only by content. Only
 * the media of orphans that could be a new post in every other field are fetched
 * (`orphanMediaToLearn`); a plan with no new post with media fetches nothing. Each is streamed
 * through sha256 once (stopped once larger than every local media of the new posts: it can then
 * be none of them) and nothing is written. A media the service does not offer
 * (`downloadProblem`) or that fails to arrive is left out: it stays unknown, and its post is not
 * adopted.
 */
export async function learnOrphanMedia(input: {
  posts: readonly DesiredPost[];
  state: ProjectState;
  live: LivePostsById;
  /**
   * Media already learned (id → sha256), kept by a session that plans again and again (watch), so
   * each is fetched once: a media's content never changes under its id. Filled with what is learned.
   */
  learned?: Map<string, string>;
}): Promise<Map<string, string>> {
  const { state } = input;
  const newPosts = input.posts.filter((post) => state.posts[post.key] === undefined && state.pending[post.key] === undefined);
  const media = orphanMediaToLearn({ newPosts, state, live: input.live });
  // A remote media larger than every local one of the new posts is none of them by content.
  const atMostBytes = Math.max(0, ...newPosts.flatMap((post) => post.media.map((item) => item.sizeBytes)));
  const kept = input.learned ?? new Map<string, string>();
  const learned = new Map<string, string>();
  const limit = pLimit(FETCH_CONCURRENCY);
  await Promise.all(
    media.map((item) =>
      limit(async () => {
        const sha256 = kept.get(item.id) ?? (await contentOf(item, atMostBytes));
        if (sha256 === undefined) return;
        learned.set(item.id, sha256);
        kept.set(item.id, sha256);
      }),
    ),
  );
  return learned;
}

async function contentOf(media: Media, atMostBytes: number): Promise<string | undefined> {
  if (downloadProblem(media) !== undefined) return undefined;
  try {
    return (await fetchMediaSource(media, { atMostBytes })).sha256;
  } catch {
    // Unreachable, refused or too large: the media stays unknown by content, which is never a match.
    return undefined;
  }
}
