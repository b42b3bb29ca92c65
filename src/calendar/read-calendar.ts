import type { Capabilities } from '../api/types.js';
import { NetworkError, ApiError } from '../api/errors.js';
import type { RunCache } from '../cache/run-cache.js';
import type { Config } from '../config/types.js';
import { readContent, readUnchangedInFull } from '../content/read-content.js';
import type { ReadContentOptions } from '../content/read-file.js';
import type { Diagnostic } from '../diagnostics.js';
import type { LivePostsById, Plan } from '../plan/types.js';
import type { Post } from '../api/types.js';
import { buildPlan, startRemoteRead } from '../pipeline/build-plan.js';
import type { Connection } from '../pipeline/connect.js';
import { createPlanCaches } from '../pipeline/plan-caches.js';
import { readState, readStateSection } from '../state/state-file.js';
import type { TargetState } from '../state/types.js';
import { entriesContext, keepEntry, splitKept, type EntryStore, type KeptEntry, type KeptShown } from './kept-entries.js';
import type { ModelPost } from './model.js';
import { captionsOf, cardContextKey, type PostCard } from './post-card.js';
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
  /** Posts of unchanged files shown from the entries the last page kept (`entries`), in no order. */
  kept?: KeptShown[];
  /** Keeps an entry the page wrote, for the next calendar (`entries`). */
  keepEntry?: (post: ModelPost, text: string) => void;
}

export interface ReadCalendarOptions {
  config: Config;
  /** `.postsync/cache`: the summaries of unchanged files, and their posts' cards; saved by the caller. */
  kept?: RunCache;
  now: Date;
  /** Opens the connection (the caller's choices: CI, event printer); closed here. */
  connect: () => Promise<Connection>;
  /**
   * A page will be written, whose thumbnails are under `mediaPrefix`: posts are shown from the
   * entries the last page kept in `kept` where those still hold, and the page's entries are kept.
   */
  entries?: { mediaPrefix: string };
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
    // Every listed post is shown in full (its targets' statuses): listed whole, each page parsed once.
    const listing = startRemoteRead(connection.client, { keeps: 'whole' });
    const built = await buildPlan({ config, connection, state, listing, ...(options.kept === undefined ? {} : { kept: options.kept }), prune: false, only: null, now });
    const { desired } = built;
    const capabilities = desired.rules.capabilities;
    const records = built.state.section?.posts;
    const liveOf = (key: string) => {
      const postId = records?.[key]?.postId;
      return postId === undefined || postId === null ? undefined : built.live.get(postId);
    };
    const store = options.entries === undefined ? undefined : options.kept?.calendarEntries<KeptEntry>(entriesContext(cardContextKey(config.timezone, captionsOf(capabilities)), options.entries.mediaPrefix));
    const { shown, rest } =
      store === undefined
        ? { shown: [], rest: desired.unchanged }
        : splitKept({ store, unchanged: desired.unchanged, changed: changedKeys(built.plan), troubled: new Set(desired.diagnostics.flatMap((diagnostic) => (diagnostic.file === undefined ? [] : [diagnostic.file]))), liveOf });
    const cards = await readCards({ ...desired, unchanged: rest, timezone: config.timezone, capabilities, probe: createPlanCaches().probes.probe, ...(options.kept === undefined ? {} : { kept: options.kept }) });
    return {
      cards,
      kept: shown,
      ...(store === undefined || options.entries === undefined ? {} : { keepEntry: entryKeeper({ store, cards, desired: [desired.posts, rest], liveOf, mediaPrefix: options.entries.mediaPrefix }) }),
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

/** The keys of the posts the plan changes (its noops left out). */
function changedKeys(plan: Plan): Set<string> {
  const keys = new Set<string>();
  for (const change of plan.changes) if (change.action !== 'noop') keys.add(change.key);
  return keys;
}

/** Keeps a written entry of a post made from its card: the post's fingerprint is that of the file the card was made from. */
function entryKeeper(input: { store: EntryStore; cards: readonly PostCard[]; desired: readonly (readonly { key: string; fingerprint: string }[])[]; liveOf: (key: string) => Post | undefined; mediaPrefix: string }): (post: ModelPost, text: string) => void {
  const cards = new Map(input.cards.map((card) => [card.key, card]));
  const fingerprints = new Map<string, string>();
  for (const posts of input.desired) for (const post of posts) fingerprints.set(post.key, post.fingerprint);
  return (post, text) => {
    const card = cards.get(post.key);
    const fingerprint = fingerprints.get(post.key);
    if (card !== undefined && fingerprint !== undefined) keepEntry(input.store, { post, text, card, fingerprint, live: input.liveOf(post.key), mediaPrefix: input.mediaPrefix });
  };
}
