import type { Capabilities } from '../api/types.js';
import { NetworkError, ApiError } from '../api/errors.js';
import type { RunCache } from '../cache/run-cache.js';
import type { Config } from '../config/types.js';
import { readContent } from '../content/read-content.js';
import type { ReadContentOptions } from '../content/read-file.js';
import type { Diagnostic } from '../diagnostics.js';
import type { LivePostsById, Plan } from '../plan/types.js';
import { buildPlan, startRemoteRead } from '../pipeline/build-plan.js';
import type { Connection } from '../pipeline/connect.js';
import { desiredDiagnostics, type DesiredSide } from '../pipeline/read-desired.js';
import type { MediaMemo } from '../content/media-memo.js';
import type { MediaProbe } from '../media/probe.js';
import { sortByKey } from '../text/ordering.js';
import { createPlanCaches } from '../pipeline/plan-caches.js';
import { readState, readStateSection } from '../state/state-file.js';
import type { ProjectState } from '../state/types.js';
import type { PostCard } from './post-card.js';
import { postCards } from './read-cards.js';

/** What a calendar is made from (see buildCalendarModel): the posts' cards, the plan, the remote. */
export interface CalendarSources {
  /** The card of every post of the files the calendar shows, by key. */
  cards: PostCard[];
  /** Null when the API was not reached. */
  plan: Plan | null;
  live: LivePostsById | null;
  state: ProjectState | null;
  capabilities: ReadonlyMap<string, Capabilities>;
  diagnostics: Diagnostic[];
  /** The target line (`Target: …`), as a plan prints it. */
  target: string;
  /** Why the API was not reached. */
  offlineReason?: string;
}

export interface ReadCalendarOptions {
  config: Config;
  /** The reading memo (`.postsync/cache`), saved by the caller. */
  memo?: RunCache;
  now: Date;
  /** Opens the connection (the caller's choices: CI, event printer); closed here. */
  connect: () => Promise<Connection>;
}

/**
 * The calendar's inputs, read as `plan` reads them (`buildPlan`), and a card of every post.
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
    const state = readStateSection(config.statePath, connection.project);
    // The plan as `plan` makes it (deletes left as skipped, as without --prune); then the cards.
    const listing = startRemoteRead(connection.client, {});
    // The cards' media facts come from the plan's own memo: no file is probed twice.
    const caches = createPlanCaches(options.memo);
    const built = await buildPlan({ config, connection, state, listing, caches, prune: false, selection: null, now });
    return plannedCalendarSources(built.desired, { plan: built.plan, live: built.live, state: built.state.section, target: connection.label, timezone: config.timezone, media: caches.media });
  } finally {
    await connection.close();
  }
}

/**
 * The sources of the calendar of a plan, from its desired side: the one way both `calendar` and
 * `watch --calendar` make them. The calendar shows every post of the files, those a calendar
 * error holds back (a house rule they break) too, on their days.
 */
export async function plannedCalendarSources(
  desired: Pick<DesiredSide, 'posts' | 'held' | 'contentDiagnostics' | 'checkDiagnostics' | 'rules'>,
  against: { plan: Plan; live: LivePostsById; state: ProjectState; target: string; timezone: string; media: Pick<MediaMemo<MediaProbe>, 'probe'> },
): Promise<CalendarSources> {
  const { capabilities } = desired.rules;
  const posts = desired.held.length === 0 ? desired.posts : sortByKey([...desired.posts, ...desired.held]);
  return {
    cards: await postCards(posts, { timezone: against.timezone, capabilities, media: against.media }),
    plan: against.plan,
    live: against.live,
    state: against.state,
    capabilities,
    diagnostics: desiredDiagnostics(desired),
    target: against.target,
  };
}

/** No answer from the API, or only server errors: a calendar from the files is still worth having. */
function unreachable(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof ApiError && error.status >= 500);
}

async function readOffline(options: ReadCalendarOptions, reason: string): Promise<CalendarSources> {
  const { config, now } = options;
  const caches = createPlanCaches(options.memo);
  const state = await readState(config.statePath);
  // The state section of the configured API (its project is unknown without the API): the one whose URL matches.
  const apiUrl = config.api.url ?? 'local';
  const section = Object.values(state.targets).find((candidate) => candidate.apiUrl === apiUrl) ?? null;
  const memo = options.memo?.posts(config);
  const reading: ReadContentOptions = {
    config,
    now,
    media: caches.media,
    acceptPastSchedule: ({ key }) => section?.posts[key] !== undefined,
    ...(memo === undefined ? {} : { memo }),
  };
  const content = await readContent(reading);
  const capabilities = new Map();
  return {
    cards: await postCards(content.posts, { timezone: config.timezone, capabilities, media: caches.media }),
    plan: null,
    live: null,
    state: section,
    capabilities,
    diagnostics: content.diagnostics,
    target: config.api.url === null ? 'Target: local API (embedded)' : `Target: ${config.api.url}`,
    offlineReason: reason.split('\n')[0],
  };
}
