import type { Config } from '../config/types.js';
import type { DesiredPost } from '../content/types.js';
import { shapeHash } from '../content/shape-hash.js';
import type { Diagnostic } from '../diagnostics.js';
import { checkHouseRules, scheduleRulesOf, type AccountFacts, type OtherPost, type RulePost } from '../house-rules/index.js';
import { assignSlots, type SlotRequest } from '../slots/index.js';
import type { ProjectState } from '../state/types.js';
import { timeText } from '../zoned-time/index.js';
import { normalizeInstant } from './live-shape.js';
import type { HeldPost, LivePostsById } from './types.js';

/** What the schedule decisions of one plan are worked out from. */
export interface SchedulePolicyInput {
  /** The posts; a `next-slot` post has no time yet. */
  posts: readonly DesiredPost[];
  config: Pick<Config, 'rules' | 'slots' | 'timezone' | 'accounts'>;
  state: ProjectState;
  /**
   * The remote posts, when listed: an owned post whose file is gone (or broken) still takes its
   * place on its accounts, and a post whose time and accounts are as the remote has them stands
   * settled. Without it (validate), only the state tells.
   */
  live?: LivePostsById;
  /** Platform of each account in use, by id (from its capabilities), for rules limited to platforms. */
  accounts: ReadonlyMap<string, AccountFacts>;
  now: Date;
  prune: boolean;
  /** Files with errors: their owned posts stay on the remote as they are, so they count. */
  brokenFiles: ReadonlySet<string>;
}

export interface ScheduleDecisions {
  /** `posts` with the `next-slot` ones given their slot; posts an error keeps back are left out. */
  posts: DesiredPost[];
  /** Slots not found (errors), slots given up (warnings) and broken schedule rules, on the posts' files; each about one post names its `key`. */
  diagnostics: Diagnostic[];
  /** The posts left out because of an error of their own: the plan blocks them as it blocks an invalid file's post. */
  held: HeldPost[];
}

/**
 * The schedule decisions of a plan, which need every post at once: each `next-slot` post gets
 * its slot (src/slots: the one recorded in the state, or the earliest free one that breaks no
 * rule), then the schedule rules (quiet hours, gaps, counts, blackouts) are checked over all
 * posts (src/house-rules). A post with an error (no slot, a broken rule of severity error) is
 * kept back: it is neither created nor updated, as a post of an invalid file. Posts whose time
 * has passed take their place without being checked (they are published or about to be).
 * Pure: the same input gives the same result.
 */
export function decideSchedule(input: SchedulePolicyInput): ScheduleDecisions {
  const rules = scheduleRulesOf(input.config.rules);
  const requested = input.posts.filter((post) => post.slot !== undefined && post.shape.targets.length > 0);
  if (rules.length === 0 && requested.length === 0) return { posts: [...input.posts], diagnostics: [], held: [] };
  const { timezone } = input.config;
  const nowMs = input.now.getTime();
  const aliases = aliasesOf(input.config.accounts);
  const fixed: RulePost[] = [];
  const others: OtherPost[] = [...remoteOnly(input)];
  for (const post of input.posts.filter((post) => post.slot === undefined)) {
    const entry = rulePostOf(post, input, aliases);
    if (entry.scheduledAt === null) continue;
    if (Date.parse(entry.scheduledAt) <= nowMs) others.push({ key: entry.key, accountIds: entry.targets.map((t) => t.accountId), scheduledAt: entry.scheduledAt });
    else fixed.push(entry);
  }
  const recorded = new Map<string, string>();
  for (const post of requested) {
    const slotAt = input.state.posts[post.key]?.slotAt;
    if (slotAt !== undefined) recorded.set(post.key, slotAt);
  }
  const requests: SlotRequest[] = requested.map((post) => ({ key: post.key, file: post.file, ...(post.slot!.at === undefined ? {} : { scheduleAt: post.slot!.at }), accountIds: post.shape.targets.map((t) => t.socialAccountId), labels: post.targetLabels }));
  const slotted = assignSlots({ requests, recorded, posts: fixed, others, slots: input.config.slots, rules, timezone, accounts: input.accounts, now: input.now.toISOString() });
  const assigned = new Map(slotted.assignments.map((assignment) => [assignment.key, assignment]));
  const posts = input.posts.map((post) => {
    const assignment = assigned.get(post.key);
    if (assignment === undefined) return post;
    const shape = { ...post.shape, scheduledAt: assignment.scheduledAt };
    const taken = { slot: assignment.slot, wall: timeText(assignment.scheduledAt, timezone), source: assignment.source };
    return { ...post, shape, shapeHash: shapeHash(shape), slot: { ...post.slot, taken } };
  });
  const slotPosts: RulePost[] = [];
  for (const post of posts) {
    if (post.slot?.taken === undefined) continue;
    const entry: RulePost = { ...rulePostOf(post, input, aliases), standing: post.slot.taken.source === 'recorded' ? 'settled' : 'slotted' };
    if (Date.parse(entry.scheduledAt!) > nowMs) slotPosts.push(entry);
    else others.push({ key: entry.key, accountIds: entry.targets.map((t) => t.accountId), scheduledAt: entry.scheduledAt! });
  }
  const checked = rules.length === 0 ? [] : checkHouseRules({ posts: [...fixed, ...slotPosts], others, rules, timezone, accounts: input.accounts }).violations;
  const diagnostics = [...slotted.diagnostics, ...checked];
  const held = new Set<string>();
  for (const diagnostic of checked) if (diagnostic.severity === 'error') held.add(diagnostic.key);
  for (const post of requested) if (!assigned.has(post.key)) held.add(post.key);
  if (held.size === 0) return { posts, diagnostics, held: [] };
  const heldPosts = posts.filter((post) => held.has(post.key)).map((post) => ({ file: post.file, key: post.key }));
  return { posts: posts.filter((post) => !held.has(post.key)), diagnostics, held: heldPosts };
}

/** A post as the schedule rules see it: its time, its accounts, and whether it stands as applied. */
function rulePostOf(post: DesiredPost, input: SchedulePolicyInput, aliases: ReadonlyMap<string, string>): RulePost {
  const { scheduledAt } = post.shape;
  const accountIds = post.shape.targets.map((target) => target.socialAccountId);
  const scheduleAt = post.locations?.schedule;
  return {
    key: post.key,
    file: post.file,
    fileInContent: '',
    scheduledAt,
    ...(scheduleAt === undefined ? {} : { scheduleAt }),
    standing: isSettled(post, scheduledAt, accountIds, input) ? 'settled' : 'changed',
    targets: accountIds.map((accountId, index) => ({ accountId, label: post.targetLabels[index] ?? aliases.get(accountId) ?? accountId, text: '', options: {} })),
    media: [],
  };
}

/** Applied with this time and these accounts: the state's hash says the whole post is as applied, or the remote post has them. */
function isSettled(post: DesiredPost, scheduledAt: string | null, accountIds: readonly string[], input: SchedulePolicyInput): boolean {
  const record = input.state.posts[post.key];
  if (record === undefined) return false;
  if (record.appliedHash === post.shapeHash) return true;
  const live = input.live?.get(record.postId);
  if (live === undefined || normalizeInstant(live.scheduledAt) !== scheduledAt) return false;
  const liveAccounts = live.targets.map((target) => target.socialAccountId).sort();
  return liveAccounts.length === accountIds.length && [...accountIds].sort().every((id, index) => id === liveAccounts[index]);
}

/**
 * Owned posts no file stands for now that keep their time on the remote: a broken file's (its post
 * stays as it is). A removed file's post leaves its slot (it goes back to draft, or --prune deletes
 * it), and so does a renamed post's former key: a post never clashes with itself. While any file is
 * broken, a removed post may be that file under a new name and keeps its place.
 */
function remoteOnly(input: SchedulePolicyInput): OtherPost[] {
  if (input.live === undefined) return [];
  const keys = new Set(input.posts.map((post) => post.key));
  const renamedFrom = new Set(input.posts.filter((post) => input.state.posts[post.key] === undefined).map((post) => post.shapeHash));
  const others: OtherPost[] = [];
  for (const [key, record] of Object.entries(input.state.posts)) {
    if (keys.has(key) || renamedFrom.has(record.appliedHash)) continue;
    if (!input.brokenFiles.has(record.file) && input.brokenFiles.size === 0) continue;
    const live = input.live.get(record.postId);
    const scheduledAt = normalizeInstant(live?.scheduledAt);
    if (live === undefined || live.status !== 'scheduled' || scheduledAt === null) continue;
    others.push({ key, postId: live.id, accountIds: live.targets.map((target) => target.socialAccountId), scheduledAt });
  }
  return others;
}

/** Account id → the alias postsync.yaml gives it (the first, in file order), for messages. */
function aliasesOf(accounts: Readonly<Record<string, string>>): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const [alias, id] of Object.entries(accounts)) if (!aliases.has(id)) aliases.set(id, alias);
  return aliases;
}
