import type { RunCache } from '../cache/run-cache.js';
import type { MediaMemo } from '../content/media-memo.js';
import { createMediaMemo } from '../media/media-memo.js';
import type { MediaProbe } from '../media/probe.js';

/** What a run remembers while it reads: one per command, or one for the life of `watch`. */
export interface PlanCaches {
  /** What media files hold (hash, size, probe), each file read once: content reading, the media rules and the calendar share it. */
  media: MediaMemo<MediaProbe>;
  /** The reading memo (`.postsync/cache`); absent, every file is read. */
  memo?: RunCache;
}

export function createPlanCaches(memo?: RunCache): PlanCaches {
  const kept = memo?.mediaFacts();
  return { media: createMediaMemo(kept === undefined ? {} : { kept }), ...(memo === undefined ? {} : { memo }) };
}
