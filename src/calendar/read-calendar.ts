import type { Capabilities } from '../api/types.js';
import { NetworkError, ApiError } from '../api/errors.js';
import type { Config } from '../config/types.js';
import { sortByKey } from '../content/ordering.js';
import { readContent, readUnchangedInFull } from '../content/read-content.js';
import type { DesiredPost } from '../content/types.js';
import type { Diagnostic } from '../diagnostics.js';
import type { ProbedMedia } from '../media/media-rules.js';
import { probePostMedia } from '../media/probe-cache.js';
import { createPlan } from '../plan/planner.js';
import type { AccountAvailability, LivePostsById, Plan } from '../plan/types.js';
import { guardChanges } from '../run/guard-changes.js';
import type { Connection } from '../run/connect.js';
import { listLivePosts } from '../run/live-listing.js';
import type { PlanCaches } from '../run/plan-caches.js';
import { readDesired } from '../run/read-desired.js';
import { readState, sectionFor, sectionHashOf } from '../state/store.js';
import type { TargetState } from '../state/types.js';

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
  caches: PlanCaches;
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
  const { config, caches, now } = options;
  let connection: Connection;
  try {
    connection = await options.connect();
  } catch (error) {
    if (!unreachable(error)) throw error;
    return readOffline(options, (error as Error).message);
  }
  try {
    const listing = listLivePosts(connection.client);
    listing.catch(() => undefined);
    const state = await readState(config.statePath, { known: caches.kept?.knownStates() });
    const section = sectionFor(state, connection.target);
    const owned = { has: (key: string) => section.posts[key] !== undefined };
    const [live, desired] = await Promise.all([listing, readDesired({ config, client: connection.client, now, caches, ownedKeys: owned })]);
    const readings = caches.kept?.readings(config);
    const full = await readUnchangedInFull(desired.unchanged, {
      config,
      now,
      probe: caches.probes.probe,
      mediaCache: caches.media,
      acceptPastSchedule: ({ key }) => owned.has(key),
      ...(readings === undefined ? {} : { readings }),
    });
    const posts = sortByKey([...desired.posts, ...full]);
    // As buildPlan plans, with every post in full (the planner still settles untouched ones by
    // their hash and updatedAt) and deletes left as skipped, as without --prune.
    const accounts = new Map<string, AccountAvailability>();
    for (const [id, capabilities] of desired.rules.capabilities) accounts.set(id, { available: capabilities.available && capabilities.supported, reason: capabilities.reason });
    const planned = createPlan({ target: connection.target, desired: posts, diagnostics: desired.diagnostics, state: section, stateHash: sectionHashOf(state, connection.target), live, accounts, prune: false, only: null, now: now.toISOString() });
    return {
      posts,
      plan: guardChanges(planned, { diagnostics: desired.contentDiagnostics, now }),
      live,
      state: section,
      capabilities: desired.rules.capabilities,
      diagnostics: desired.diagnostics,
      probes: await probePostMedia(posts, caches.probes.probe),
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
  const { config, caches, now } = options;
  const state = await readState(config.statePath, { known: caches.kept?.knownStates() });
  // The state section of the configured API (its project is unknown without the API): the one whose URL matches.
  const apiUrl = config.api.url ?? 'local';
  const section = Object.values(state.targets).find((candidate) => candidate.apiUrl === apiUrl) ?? null;
  const readings = caches.kept?.readings(config);
  const content = await readContent({
    config,
    now,
    probe: caches.probes.probe,
    mediaCache: caches.media,
    acceptPastSchedule: ({ key }) => section?.posts[key] !== undefined,
    ...(readings === undefined ? {} : { readings }),
  });
  return {
    posts: content.posts,
    plan: null,
    live: null,
    state: section,
    capabilities: new Map(),
    diagnostics: content.diagnostics,
    probes: await probePostMedia(content.posts, caches.probes.probe),
    target: config.api.url === null ? 'Target: local API (embedded)' : `Target: ${config.api.url}`,
    offlineReason: reason.split('\n')[0],
  };
}
