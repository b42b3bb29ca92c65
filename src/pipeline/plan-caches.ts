import type { RunCache } from '../cache/run-cache.js';
import { MediaCache } from '../content/media-cache.js';
import { createProbeCache, type ProbeCache } from '../media/probe-cache.js';

/** Caches a long-lived caller (watch mode) keeps between plans; a one-shot run makes fresh ones. */
export interface PlanCaches {
  media: MediaCache;
  probes: ProbeCache;
  /** What earlier runs found out (`.postsync/cache`); absent, everything is worked out afresh. */
  kept?: RunCache;
}

export function createPlanCaches(kept?: RunCache): PlanCaches {
  return { media: new MediaCache(), probes: createProbeCache(), ...(kept === undefined ? {} : { kept }) };
}
