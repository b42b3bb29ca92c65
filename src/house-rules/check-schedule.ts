import { SCHEDULE_RULE_KINDS, type HouseRule, type ScheduleRule } from '../config/house-rule-types.js';
import { compareText } from '../text/ordering.js';
import type { HouseRulesInput, OtherPost, PostStanding, RulePost, RuleViolation } from './rule-input.js';
import { ScheduleBook, type BookEntry } from './schedule-book.js';
import { scheduleViolation } from './schedule-violations.js';

export function scheduleRulesOf(rules: readonly HouseRule[]): ScheduleRule[] {
  return rules.filter((rule): rule is ScheduleRule => SCHEDULE_RULE_KINDS.has(rule.kind));
}

const RANK: Readonly<Record<PostStanding | 'other', number>> = { other: 0, settled: 0, changed: 1, slotted: 2 };

type Turn = { entry: BookEntry; rank: number; post?: RulePost };

/**
 * Places the posts in the book in a fixed order (settled posts and others, then changed, then
 * slotted; each by time, then key) and reports each post's conflicts with those placed before
 * it. A post that breaks an error rule is not placed (it will be blocked, so it takes no room);
 * one that only breaks warnings is. Others are placed without being checked: they have no file.
 */
export function fillScheduleBook(book: ScheduleBook, posts: readonly RulePost[], others: readonly OtherPost[], context: { timezone: string; label: (accountId: string) => string }): RuleViolation[] {
  const turns: Turn[] = [];
  for (const other of others) turns.push({ entry: { key: other.key ?? other.postId ?? '', postId: other.postId, instantMs: Date.parse(other.scheduledAt), accountIds: other.accountIds }, rank: RANK.other });
  for (const post of posts) {
    if (post.scheduledAt === null || post.targets.length === 0) continue;
    const entry: BookEntry = { key: post.key, file: post.file, instantMs: Date.parse(post.scheduledAt), accountIds: post.targets.map((t) => t.accountId) };
    turns.push({ entry, rank: RANK[post.standing ?? 'changed'], post });
  }
  turns.sort((a, b) => a.rank - b.rank || a.entry.instantMs - b.entry.instantMs || compareText(a.entry.key, b.entry.key));
  const violations: RuleViolation[] = [];
  for (const { entry, post } of turns) {
    if (post === undefined) {
      book.place(entry);
      continue;
    }
    const conflicts = book.conflicts(entry);
    violations.push(...conflicts.map((conflict) => scheduleViolation(post, conflict, context)));
    if (!conflicts.some((conflict) => conflict.rule.severity === 'error')) book.place(entry);
  }
  return violations;
}

/** The schedule rules' violations of a set of posts. */
export function checkSchedule(input: HouseRulesInput, label: (accountId: string) => string): RuleViolation[] {
  const rules = scheduleRulesOf(input.rules);
  if (rules.length === 0) return [];
  return fillScheduleBook(new ScheduleBook(rules, input), input.posts, input.others ?? [], { timezone: input.timezone, label });
}
