import { MediaCache } from '../content/media-cache.js';
import { createProbeCache, type ProbeCache } from '../media/probe-cache.js';

/** Caches a long-lived caller (watch mode) keeps between plans; a one-shot run makes fresh ones. */
export interface PlanCaches {
  media: MediaCache;
  probes: ProbeCache;
}

export function createPlanCaches(): PlanCaches {
  return { media: new MediaCache(), probes: createProbeCache() };
}
