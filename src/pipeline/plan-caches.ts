import type { RunCache } from '../cache/run-cache.js';
import { MediaCache } from '../content/media-cache.js';
import { createProbeCache, type ProbeCache } from '../media/probe-cache.js';

/** Caches a long-lived caller (watch mode) keeps between plans; a one-shot run makes fresh ones. */
export interface PlanCaches {
  media: MediaCache;
  probes: ProbeCache;
  /** The reading memo (`.postsync/cache`); absent, every file is read. */
  memo?: RunCache;
}

export function createPlanCaches(memo?: RunCache): PlanCaches {
  return { media: new MediaCache(), probes: createProbeCache(), ...(memo === undefined ? {} : { memo }) };
}
