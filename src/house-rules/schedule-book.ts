import type { BlackoutPeriod, ScheduleRule } from '../config/house-rule-types.js';
import { addDays, dayNumber, instantAt, wallMinutes, wallMomentOf, weekStart, type CivilDate, type WallMoment } from '../zoned-time/index.js';
import type { AccountFacts } from './rule-input.js';
import { appliesTo } from './rule-scope.js';

/** A post in the book: when, on which accounts, and what to call it in a message. */
export interface BookEntry {
  /** The post's key, or for a post without one its id. */
  key: string;
  file?: string;
  postId?: string;
  instantMs: number;
  accountIds: readonly string[];
  /** Its time on the project's clock, when the caller knows it already (asking Intl is the slow part of a check). */
  wall?: WallMoment;
}

/** What placing one post at its time would break. */
export interface ScheduleConflict {
  rule: ScheduleRule;
  /** The accounts in the rule's scope it breaks the rule on (one for gaps and counts). */
  accountIds: string[];
  /** The post's time on the project's clock. */
  wall: WallMoment;
  /** Gap: the posts too close; per day or week: the posts already there. */
  clashes: readonly BookEntry[];
  /** Blackout: the period hit. */
  period?: BlackoutPeriod;
}

/**
 * The posts placed so far on each account, sorted by time, and the schedule rules. `conflicts`
 * answers what one more post would break (the slot assigner asks it for each candidate time;
 * the rules engine for each post in turn), `place` adds a post. Pure apart from its own lists.
 */
export class ScheduleBook {
  private readonly byAccount = new Map<string, BookEntry[]>();
  /** Day number → the first instant of that day (asking Intl is the slow part of a check). */
  private readonly midnights = new Map<number, number>();

  constructor(
    private readonly rules: readonly ScheduleRule[],
    private readonly context: { timezone: string; accounts?: ReadonlyMap<string, AccountFacts> },
  ) {}

  conflicts(entry: BookEntry): ScheduleConflict[] {
    const wall = entry.wall ?? wallMomentOf(entry.instantMs, this.context.timezone);
    const conflicts: ScheduleConflict[] = [];
    for (const rule of this.rules) {
      const inScope = entry.accountIds.filter((id) => appliesTo(rule, id, this.context));
      if (inScope.length === 0) continue;
      switch (rule.kind) {
        case 'quietHours':
          if (rule.from < rule.to ? wall.minute >= rule.from && wall.minute < rule.to : wall.minute >= rule.from || wall.minute < rule.to) conflicts.push({ rule, accountIds: inScope, wall, clashes: [] });
          break;
        case 'blackout': {
          const minutes = wallMinutes(wall);
          const period = rule.periods.find((p) => minutes >= p.from && minutes < p.to);
          if (period !== undefined) conflicts.push({ rule, accountIds: inScope, wall, clashes: [], period });
          break;
        }
        case 'minGap':
          for (const id of inScope) {
            const clashes = this.within(id, entry.instantMs - rule.minutes * 60_000, entry.instantMs + rule.minutes * 60_000, { open: true });
            if (clashes.length > 0) conflicts.push({ rule, accountIds: [id], wall, clashes });
          }
          break;
        case 'maxPerDay':
        case 'maxPerWeek': {
          const first = rule.kind === 'maxPerDay' ? wall.date : weekStart(wall.date);
          const [from, to] = [this.midnight(first), this.midnight(addDays(first, rule.kind === 'maxPerDay' ? 1 : 7))];
          for (const id of inScope) {
            const clashes = this.within(id, from, to, { open: false });
            if (clashes.length >= rule.limit) conflicts.push({ rule, accountIds: [id], wall, clashes });
          }
          break;
        }
      }
    }
    return conflicts;
  }

  place(entry: BookEntry): void {
    for (const id of entry.accountIds) {
      const list = this.byAccount.get(id) ?? [];
      list.splice(this.firstAfter(list, entry.instantMs - 1), 0, entry);
      this.byAccount.set(id, list);
    }
  }

  /** Posts on an account from `from` (excluded when `open`) to `to` (excluded). */
  private within(accountId: string, from: number, to: number, options: { open: boolean }): BookEntry[] {
    const list = this.byAccount.get(accountId) ?? [];
    const found: BookEntry[] = [];
    for (let index = this.firstAfter(list, options.open ? from : from - 1); index < list.length && list[index]!.instantMs < to; index++) found.push(list[index]!);
    return found;
  }

  /** Index of the first entry later than `instantMs` (binary search). */
  private firstAfter(list: readonly BookEntry[], instantMs: number): number {
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (list[middle]!.instantMs <= instantMs) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The first instant of a day on the project's clock (a midnight lost to DST is the day's first minute). */
  private midnight(date: CivilDate): number {
    const day = dayNumber(date);
    let instantMs = this.midnights.get(day);
    if (instantMs === undefined) {
      instantMs = instantAt({ date, minute: 0 }, this.context.timezone).instantMs;
      this.midnights.set(day, instantMs);
    }
    return instantMs;
  }
}
