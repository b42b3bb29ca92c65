import type { HouseRule } from '../config/house-rule-types.js';
import { formatSlot, type SlotTable } from '../config/slots-section.js';
import type { SourcePosition } from '../text/yaml-source.js';
import { compareText } from '../text/ordering.js';
import type { Diagnostic } from '../diagnostics.js';
import { fillScheduleBook, scheduleRulesOf, ScheduleBook, type AccountFacts, type OtherPost, type RulePost } from '../house-rules/index.js';
import { isoWeekday, timeText, wallMomentOf } from '../zoned-time/index.js';
import { isSlotOf, sharedSlotTimes, SlotQueue } from './slot-times.js';

/** A post written with `scheduledAt: next-slot`. */
export interface SlotRequest {
  key: string;
  file: string;
  /** Where `next-slot` is written. */
  scheduleAt?: SourcePosition;
  /** Its targets' account ids (lower-case uuids). */
  accountIds: readonly string[];
  /** The accounts as the post writes them, parallel to `accountIds`, for messages. */
  labels: readonly string[];
}

export interface AssignSlotsInput {
  requests: readonly SlotRequest[];
  /** The time each slot post got before and was applied with, by key (from the state): kept. */
  recorded: ReadonlyMap<string, string>;
  /** Every post of the files with a time of its own (not `next-slot`), as the house rules see it. */
  posts: readonly RulePost[];
  /** Scheduled posts without a file here that take room on an account (see HouseRulesInput). */
  others?: readonly OtherPost[];
  slots: SlotTable;
  rules: readonly HouseRule[];
  timezone: string;
  accounts?: ReadonlyMap<string, AccountFacts>;
  /** The instant slots are looked for after. */
  now: string;
  /** How far ahead to look; default 366 days. */
  horizonDays?: number;
}

/** The time a slot post gets: kept from the state (`recorded`) or the earliest free slot. */
export interface SlotAssignment {
  key: string;
  scheduledAt: string;
  /** The slot, as in postsync.yaml: `Mon 09:00`. */
  slot: string;
  source: 'recorded' | 'assigned';
}

export interface AssignSlotsResult {
  /** In key order. */
  assignments: SlotAssignment[];
  /** Posts that got no slot (errors) and recorded slots that were given up (warnings). */
  diagnostics: Diagnostic[];
}

const DEFAULT_HORIZON_DAYS = 366;

/**
 * Gives each `next-slot` post a time. A post with a recorded time keeps it while that time is
 * still one of its accounts' slots, or has passed. The others, in key order, each take the
 * earliest slot after `now` that all its accounts with slots share, that no post on those
 * accounts holds yet, and where the post breaks no schedule rule (errors and warnings alike).
 * Deterministic: the result depends on the input only, not on its order or the machine.
 */
export function assignSlots(input: AssignSlotsInput): AssignSlotsResult {
  const nowMs = Date.parse(input.now);
  const requests = [...input.requests].sort((a, b) => compareText(a.key, b.key));
  const assignments: SlotAssignment[] = [];
  const diagnostics: Diagnostic[] = [];
  const slotLabel = (instantMs: number) => {
    const wall = wallMomentOf(instantMs, input.timezone);
    return formatSlot({ weekday: isoWeekday(wall.date), minute: wall.minute });
  };
  const open: SlotRequest[] = [];
  const kept: RulePost[] = [];
  for (const request of requests) {
    const recorded = input.recorded.get(request.key);
    const recordedMs = recorded === undefined ? NaN : Date.parse(recorded);
    if (!Number.isNaN(recordedMs) && (recordedMs <= nowMs || isSlotOf(input.slots, request.accountIds, recordedMs, input.timezone))) {
      assignments.push({ key: request.key, scheduledAt: new Date(recordedMs).toISOString(), slot: slotLabel(recordedMs), source: 'recorded' });
      kept.push(asPost(request, recordedMs));
      continue;
    }
    if (!Number.isNaN(recordedMs)) {
      diagnostics.push({ severity: 'warning', code: 'slot-given-up', message: `the slot this post had (${timeText(recordedMs, input.timezone)}) is no longer in \`slots:\`; it takes the next free one`, file: request.file, ...request.scheduleAt, hint: 'Write the time in `scheduledAt` to keep a time of your own.' });
    }
    open.push(request);
  }
  const book = new ScheduleBook(scheduleRulesOf(input.rules), input);
  fillScheduleBook(book, [...input.posts, ...kept], input.others ?? [], { timezone: input.timezone, label: (id) => id });
  const taken = new Set<string>();
  const take = (accountIds: readonly string[], instantMs: number) => accountIds.forEach((id) => taken.add(`${id} ${instantMs}`));
  for (const post of [...input.posts, ...kept]) if (post.scheduledAt !== null) take(post.targets.map((t) => t.accountId), Date.parse(post.scheduledAt));
  for (const other of input.others ?? []) take(other.accountIds, Date.parse(other.scheduledAt));

  const days = input.horizonDays ?? DEFAULT_HORIZON_DAYS;
  // One queue per set of accounts: requests on the same accounts go on from where the last stopped.
  const queues = new Map<string, SlotQueue>();
  for (const request of open) {
    const slotted = request.accountIds.filter((id) => (input.slots[id] ?? []).length > 0);
    if (slotted.length === 0) {
      diagnostics.push(noSlot(request, 'no-slots', `\`scheduledAt: next-slot\` needs slots, and ${request.labels.join(', ') || 'this post'} ${request.labels.length === 1 ? 'has' : 'have'} none`, 'Add the account under `slots:` in postsync.yaml, e.g. `photo: ["Mon 09:00"]`, or write a time.'));
      continue;
    }
    const queueKey = [...request.accountIds].sort().join(' ');
    let queue = queues.get(queueKey);
    if (queue === undefined) {
      queue = new SlotQueue(sharedSlotTimes(input.slots, slotted, { afterMs: nowMs, days, timezone: input.timezone }));
      queues.set(queueKey, queue);
    }
    const time = queue.first(({ instantMs, wall }) => !slotted.some((id) => taken.has(`${id} ${instantMs}`)) && book.conflicts({ key: request.key, file: request.file, instantMs, accountIds: request.accountIds, wall }).length === 0);
    if (time === undefined) {
      const names = slotted.map((id) => request.labels[request.accountIds.indexOf(id)] ?? id).join(', ');
      diagnostics.push(noSlot(request, 'no-free-slot', `no slot ${slotted.length > 1 ? `shared by ${names}` : `of ${names}`} in the next ${days} days is free and breaks no rule`, slotted.length > 1 ? 'Give these accounts a slot in common, or split the post by account.' : 'Add slots, relax a rule, or write a time.'));
      continue;
    }
    book.place({ key: request.key, file: request.file, instantMs: time.instantMs, accountIds: request.accountIds });
    take(request.accountIds, time.instantMs);
    assignments.push({ key: request.key, scheduledAt: new Date(time.instantMs).toISOString(), slot: formatSlot(time.slot), source: 'assigned' });
  }
  return { assignments: assignments.sort((a, b) => compareText(a.key, b.key)), diagnostics };
}

function asPost(request: SlotRequest, instantMs: number): RulePost {
  return { key: request.key, file: request.file, fileInContent: '', scheduledAt: new Date(instantMs).toISOString(), standing: 'settled', targets: request.accountIds.map((accountId, index) => ({ accountId, label: request.labels[index] ?? accountId, text: '', options: {} })), media: [] };
}

function noSlot(request: SlotRequest, code: string, message: string, hint: string): Diagnostic {
  return { severity: 'error', code, message, file: request.file, key: request.key, ...request.scheduleAt, expected: 'a free slot', found: '`scheduledAt: next-slot`', hint };
}
