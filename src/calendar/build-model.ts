import type { Capabilities, Post } from '../api/types.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Change, LivePostsById, Plan } from '../plan/types.js';
import type { ProjectState } from '../state/types.js';
import { calendarAccounts } from './accounts.js';
import type { SlotTable } from '../config/slots-section.js';
import type { CalendarModel, CalendarSlot, CalendarSummary, CalendarPost } from './model.js';
import { remotePosters } from './media-views.js';
import type { PostCard } from './post-card.js';
import { desiredEntry, remoteEntry, type EntryContext } from './post-entry.js';
import { compareText, sortByKey } from '../text/ordering.js';
import { formatClock, mondayOf } from '../zoned-time/index.js';
import { zonePlacer, type Placer } from './zone-placer.js';

/**
 * Everything a calendar is made from. Pure: no file, network or clock beyond this.
 * `live` null: the API was not reached, statuses come from `state` and `plan` is null.
 */
export interface CalendarInput {
  now: Date;
  timezone: string;
  /** postsync.yaml's `accounts:` (alias → id). */
  aliases: Readonly<Record<string, string>>;
  /** One line naming the target. */
  target: string;
  /** The card of every valid post of the files (read-cards.ts), by key. */
  cards: readonly PostCard[];
  plan: Plan | null;
  live: LivePostsById | null;
  /** The target's state section (post ids of owned posts), or null when there is none. */
  state: ProjectState | null;
  capabilities: ReadonlyMap<string, Capabilities>;
  /** Every problem of every file, and of the project. */
  diagnostics: readonly Diagnostic[];
  /** Where the page finds the thumbnails: a folder next to a written page (`media/`), or a server's route (`/media/`). */
  mediaPrefix: string;
  /** `slots:` of postsync.yaml (account id → its weekly slots); none when absent. */
  slots?: SlotTable;
  /** Instants; posts with a time outside [from, to) are left out (drafts stay). */
  range?: { from: string | null; to: string | null };
  offlineReason?: string;
}

/** Plan actions that leave a post off the calendar entirely. */
const isForgotten = (change: Change) => change.action === 'delete' && change.stateOnly === true;

export function buildCalendarModel(input: CalendarInput): CalendarModel {
  // The plan's changes but its noops (most posts): a noop's post is the one the state records.
  const changes = new Map<string, Change>();
  for (const change of input.plan?.changes ?? []) if (change.action !== 'noop') changes.set(change.key, change);
  // Diagnostics by file (few); a file no card claims is the project's problem, or a removed or blocked post's.
  const diagnosticsByFile = new Map<string, Diagnostic[]>();
  for (const diagnostic of input.diagnostics) {
    if (diagnostic.file === undefined) continue;
    if (diagnosticsByFile.has(diagnostic.file)) diagnosticsByFile.get(diagnostic.file)!.push(diagnostic);
    else diagnosticsByFile.set(diagnostic.file, [diagnostic]);
  }

  const livePostOf = (key: string, change: Change | undefined): Post | undefined => {
    const postId = change?.postId ?? input.state?.posts[key]?.postId;
    return postId === undefined || postId === null ? undefined : input.live?.get(postId);
  };
  // One pass over the cards: each one's remote post (in the cards' order), the accounts they use, the handles the remote knows.
  const lives: (Post | undefined)[] = [];
  const used = new Set<string>();
  const handles = new Map<string, string>();
  const claimed = new Set<string>();
  for (const card of input.cards) {
    const live = livePostOf(card.key, changes.get(card.key));
    lives.push(live);
    for (const account of card.accounts) used.add(account);
    for (const target of live?.targets ?? []) if (target.handle) handles.set(target.socialAccountId, target.handle);
    if (diagnosticsByFile.has(card.file)) claimed.add(card.file);
  }
  const problems = input.diagnostics.filter((diagnostic) => diagnostic.file === undefined || !claimed.has(diagnostic.file));
  const accounts = calendarAccounts({ aliases: input.aliases, used, capabilities: input.capabilities, handles });
  const place = zonePlacer(input.timezone);
  const context: EntryContext = {
    place,
    accounts: new Map(accounts.map((account) => [account.id, account])),
    accountNames: new Map(accounts.map((account) => [account.id, account.label])),
    mediaPrefix: input.mediaPrefix,
    posters: remotePosters(input.cards, lives, input.state),
  };

  const posts: CalendarPost[] = input.cards.map((card, index): CalendarPost => {
    const change = changes.get(card.key);
    changes.delete(card.key);
    const live = lives[index];
    return desiredEntry(card, context, { change, live, status: statusOf(card, live, input), diagnostics: ownDiagnostics(diagnosticsByFile.get(card.file), card.key) });
  });
  // What the plan names beyond the files: removed files (deletes), files that cannot be read (blocked).
  const placedFiles = new Set<string>();
  for (const change of changes.values()) {
    // A removed file's post that stays a draft (a noop) is no longer on the calendar.
    if (isForgotten(change) || change.action === 'noop') continue;
    const own = change.file === null ? [] : problems.filter((d) => d.file === change.file);
    if (change.file !== null) placedFiles.add(change.file);
    posts.push(remoteEntry(change, livePostOf(change.key, change), context, own));
  }

  const kept = byTime(input.range?.from || input.range?.to ? posts.filter(rangeFilter(input.range)) : posts);
  const totals = { scheduled: 0, unscheduled: 0, ready: 0 };
  for (const post of kept) {
    if (post.slot === null) totals.unscheduled++;
    else totals.scheduled++;
    if (post.ready) totals.ready++;
  }
  return {
    formatVersion: 1,
    generatedAt: input.now.toISOString(),
    timezone: input.timezone,
    target: input.target,
    source: input.live === null ? 'state' : 'remote',
    ...(input.offlineReason === undefined ? {} : { offlineReason: input.offlineReason }),
    range: { from: input.range?.from ?? null, to: input.range?.to ?? null },
    today: place(input.now.toISOString())!.day,
    initial: initialView(input, place),
    accounts,
    slots: calendarSlots(input.slots ?? {}),
    posts: kept,
    totals,
    problems: problems.filter((d) => d.file === undefined || !placedFiles.has(d.file)),
    summary: input.plan === null ? null : summaryOf(kept),
  };
}

/** A post's problems among its file's: those of the whole file, and those about this post (an occurrence of a repeat a rule holds back). */
function ownDiagnostics(diagnostics: readonly Diagnostic[] | undefined, key: string): Diagnostic[] {
  return diagnostics?.filter((diagnostic) => diagnostic.key === undefined || diagnostic.key === key) ?? [];
}

/** The remote's status; without the remote, what the state says about the post. */
function statusOf(card: PostCard, live: Post | undefined, input: CalendarInput): string | null {
  if (input.live !== null) return live?.status ?? null;
  const record = input.state?.posts[card.key];
  if (record === undefined) return 'not applied';
  return record.appliedHash === card.shapeHash ? 'applied' : 'edited since applied';
}

function rangeFilter(range: CalendarInput['range']): (post: CalendarPost) => boolean {
  const from = range?.from ? Date.parse(range.from) : -Infinity;
  const to = range?.to ? Date.parse(range.to) : Infinity;
  const inside = (at: string | undefined) => at !== undefined && Date.parse(at) >= from && Date.parse(at) < to;
  return (post) => (post.slot === null && post.previous === null) || inside(post.slot?.at) || inside(post.previous?.at);
}

/**
 * Posts with a time (their slot, else the slot they leave) by time then key, then the others by
 * key. Most posts are drafts, in key order already (cards come by key): only the placed ones are
 * sorted by time.
 */
function byTime(posts: readonly CalendarPost[]): CalendarPost[] {
  const placed: { post: CalendarPost; at: string }[] = [];
  const unplaced: CalendarPost[] = [];
  for (const post of posts) {
    const at = post.slot?.at ?? post.previous?.at;
    if (at === undefined) unplaced.push(post);
    else placed.push({ post, at });
  }
  placed.sort((a, b) => compareText(a.at, b.at) || compareText(a.post.key, b.post.key));
  return [...placed.map(({ post }) => post), ...sortByKey(unplaced)];
}

/** The month and week the page opens on: `--from`'s, else today's (a date in the page's address wins over both). */
function initialView(input: CalendarInput, place: Placer): CalendarModel['initial'] {
  const day = place(input.range?.from ?? null)?.day ?? place(input.now.toISOString())!.day;
  return { month: day.slice(0, 7), week: mondayOf(day) };
}

/** The slot table as the page reads it: each account's slots by weekday then time. */
function calendarSlots(table: SlotTable): CalendarSlot[] {
  return Object.entries(table).flatMap(([account, slots]) => slots.map((slot) => ({ account, weekday: slot.weekday, time: formatClock(slot.minute) })));
}

function summaryOf(posts: readonly CalendarPost[]): CalendarSummary {
  const summary: CalendarSummary = { new: 0, moved: 0, changed: 0, renamed: 0, deleted: 0, unscheduled: 0, blocked: 0, unchanged: 0 };
  for (const post of posts) {
    if (post.overlay === null) summary.unchanged++;
    else summary[post.overlay]++;
  }
  return summary;
}
