import type { Capabilities } from '../api/types.js';
import { NetworkError, ApiError } from '../api/errors.js';
import type { RunCache } from '../cache/run-cache.js';
import type { Config } from '../config/types.js';
import { readContent, readUnchangedInFull } from '../content/read-content.js';
import type { ReadContentOptions } from '../content/read-file.js';
import type { DesiredPost } from '../content/types.js';
import type { Diagnostic } from '../diagnostics.js';
import type { ProbedMedia } from '../media/media-rules.js';
import { probePostMedia } from '../media/probe-cache.js';
import type { LivePostsById, Plan } from '../plan/types.js';
import { buildPlan } from '../pipeline/build-plan.js';
import type { Connection } from '../pipeline/connect.js';
import { createPlanCaches } from '../pipeline/plan-caches.js';
import { readState, readStateSection } from '../state/state-file.js';
import type { TargetState } from '../state/types.js';
import { sortByKey } from '../text/ordering.js';

/** What a calendar is made from (see buildCalendarModel): the files in full, the plan, the remote. */
export interface CalendarSources {
  /** Every valid post of the files, in full, by key. */
  posts: DesiredPost[];
  /** Null when the API was not reached. */
  plan: Plan | null;
  live: LivePostsById | null;
  state: TargetState | null;
  capabilities: ReadonlyMap<string, Capabilities>;
  diagnostics: Diagnostic[];
  /** Probes of the posts' media files, by sha256. */
  probes: ReadonlyMap<string, ProbedMedia>;
  /** The target line (`Target: …`), as a plan prints it. */
  target: string;
  /** Why the API was not reached. */
  offlineReason?: string;
}

export interface ReadCalendarOptions {
  config: Config;
  /** `.postsync/cache`: earlier readings spare the parse of unchanged files; saved by the plan. */
  kept?: RunCache;
  now: Date;
  /** Opens the connection (the caller's choices: CI, event printer); closed here. */
  connect: () => Promise<Connection>;
}

/**
 * The calendar's inputs, read as `plan` reads them (readDesired, the live listing, the pure
 * planner and guardChanges, as buildPlan does), but with every post in full: a plan needs most
 * of them only as summaries, the calendar shows them all. Kept readings
 * (`.postsync/cache/readings.json`) spare the parse of files read in full before.
 * When the API cannot be reached (no answer, or a server error after the retries), the files and
 * the state file alone: statuses from the state, no plan.
 */
export async function readCalendarSources(options: ReadCalendarOptions): Promise<CalendarSources> {
  const { config, now } = options;
  let connection: Connection;
  try {
    connection = await options.connect();
  } catch (error) {
    if (!unreachable(error)) throw error;
    return readOffline(options, (error as Error).message);
  }
  try {
    const state = readStateSection(config.statePath, connection.target, { known: options.kept?.knownStates() });
    // The plan as `plan` makes it (deletes left as skipped, as without --prune); then every
    // unchanged post in full, since the calendar shows them all.
    const built = await buildPlan({ config, connection, state, ...(options.kept === undefined ? {} : { kept: options.kept }), prune: false, only: null, now });
    const posts = built.desired.unchanged.length === 0 ? built.desired.posts : sortByKey([...built.desired.posts, ...(await built.desired.readInFull(built.desired.unchanged))]);
    return {
      posts,
      plan: built.plan,
      live: built.live,
      state: built.state.section,
      capabilities: built.desired.rules.capabilities,
      diagnostics: built.desired.diagnostics,
      probes: await probePostMedia(posts, createPlanCaches().probes.probe),
      target: connection.label,
    };
  } finally {
    await connection.close();
  }
}

/** No answer from the API, or only server errors: a calendar from the files is still worth having. */
function unreachable(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof ApiError && error.status >= 500);
}

async function readOffline(options: ReadCalendarOptions, reason: string): Promise<CalendarSources> {
  const { config, now } = options;
  const caches = createPlanCaches();
  const state = await readState(config.statePath);
  // The state section of the configured API (its project is unknown without the API): the one whose URL matches.
  const apiUrl = config.api.url ?? 'local';
  const section = Object.values(state.targets).find((candidate) => candidate.apiUrl === apiUrl) ?? null;
  const earlier = options.kept?.posts(config);
  const reading: ReadContentOptions = {
    config,
    now,
    probe: caches.probes.probe,
    mediaCache: caches.media,
    acceptPastSchedule: ({ key }) => section?.posts[key] !== undefined,
    ...(earlier === undefined ? {} : { earlier }),
  };
  const content = await readContent(reading);
  const posts = content.unchanged.length === 0 ? content.posts : sortByKey([...content.posts, ...(await readUnchangedInFull(content.unchanged, reading))]);
  return {
    posts,
    plan: null,
    live: null,
    state: section,
    capabilities: new Map(),
    diagnostics: content.diagnostics,
    probes: await probePostMedia(posts, caches.probes.probe),
    target: config.api.url === null ? 'Target: local API (embedded)' : `Target: ${config.api.url}`,
    offlineReason: reason.split('\n')[0],
  };
}
