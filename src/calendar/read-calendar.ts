import type { Capabilities } from '../api/types.js';
import { NetworkError, ApiError } from '../api/errors.js';
import type { RunCache } from '../cache/run-cache.js';
import type { Config } from '../config/types.js';
import { readContent, readUnchangedInFull } from '../content/read-content.js';
import type { ReadContentOptions } from '../content/read-file.js';
import type { Diagnostic } from '../diagnostics.js';
import type { LivePostsById, Plan } from '../plan/types.js';
import { buildPlan, startRemoteRead } from '../pipeline/build-plan.js';
import type { Connection } from '../pipeline/connect.js';
import { createPlanCaches } from '../pipeline/plan-caches.js';
import { readState, readStateSection } from '../state/state-file.js';
import type { TargetState } from '../state/types.js';
import type { PostCard } from './post-card.js';
import { readCards } from './read-cards.js';

/** What a calendar is made from (see buildCalendarModel): the posts' cards, the plan, the remote. */
export interface CalendarSources {
  /** The card of every valid post of the files, by key. */
  cards: PostCard[];
  /** Null when the API was not reached. */
  plan: Plan | null;
  live: LivePostsById | null;
  state: TargetState | null;
  capabilities: ReadonlyMap<string, Capabilities>;
  diagnostics: Diagnostic[];
  /** The target line (`Target: …`), as a plan prints it. */
  target: string;
  /** Why the API was not reached. */
  offlineReason?: string;
}

export interface ReadCalendarOptions {
  config: Config;
  /** `.postsync/cache`: the summaries of unchanged files, and their posts' cards; saved by the caller. */
  kept?: RunCache;
  now: Date;
  /** Opens the connection (the caller's choices: CI, event printer); closed here. */
  connect: () => Promise<Connection>;
}

/**
 * The calendar's inputs, read as `plan` reads them (`buildPlan`), and a card of every post: a plan
 * needs most posts only as summaries, the calendar shows them all. A post of an unchanged file
 * whose card `.postsync/cache` keeps is not read again (readCards); the others are read in full.
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
    // The plan as `plan` makes it (deletes left as skipped, as without --prune); then the cards.
    const listing = startRemoteRead(connection.client, {});
    const built = await buildPlan({ config, connection, state, listing, ...(options.kept === undefined ? {} : { kept: options.kept }), prune: false, only: null, now });
    const { desired } = built;
    const capabilities = desired.rules.capabilities;
    // Every post's page entry is made from its card on every run: nothing kept from an earlier page reaches this one.
    const cards = await readCards({ ...desired, timezone: config.timezone, capabilities, probe: createPlanCaches().probes.probe, ...(options.kept === undefined ? {} : { kept: options.kept }) });
    return {
      cards,
      plan: built.plan,
      live: built.live,
      state: built.state.section,
      capabilities,
      diagnostics: desired.diagnostics,
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
  const capabilities = new Map();
  return {
    cards: await readCards({ ...content, readInFull: (posts) => readUnchangedInFull(posts, reading), timezone: config.timezone, capabilities, probe: caches.probes.probe, ...(options.kept === undefined ? {} : { kept: options.kept }) }),
    plan: null,
    live: null,
    state: section,
    capabilities,
    diagnostics: content.diagnostics,
    target: config.api.url === null ? 'Target: local API (embedded)' : `Target: ${config.api.url}`,
    offlineReason: reason.split('\n')[0],
  };
}
