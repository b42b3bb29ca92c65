import type { PostSort } from '../../api/types.js';
import { SortedList } from './sorted-list.js';

/** What the indexes order by; kept apart from the post so a re-index can find the old position. */
export interface SortKey {
  readonly id: string;
  readonly createdMs: number;
  /** null: unscheduled (a draft); such posts come last in both schedule sorts. */
  readonly scheduledMs: number | null;
}

interface Entry<T> extends SortKey {
  readonly value: T;
}

const byIdOnly = (a: SortKey, b: SortKey): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byCreation = (a: SortKey, b: SortKey): number => a.createdMs - b.createdMs || byIdOnly(a, b);
const bySchedule = (a: SortKey, b: SortKey): number => (a.scheduledMs ?? 0) - (b.scheduledMs ?? 0) || byCreation(a, b);

/** One run of an ordered list, read forwards or backwards. A sort order is a concatenation of runs. */
interface Run<T> {
  readonly list: SortedList<Entry<T>>;
  readonly reversed: boolean;
  /** Whether a key lives in this run (each key lives in exactly one run of a sort order). */
  readonly holds: (key: SortKey) => boolean;
}

export interface PageRequest<T> {
  sort: PostSort;
  limit: number;
  after?: SortKey;
  before?: SortKey;
  matches: (value: T) => boolean;
}

export interface PageResult<T> {
  items: T[];
  /** Id of the last item when more may follow; null when the end was reached. */
  nextCursor: string | null;
}

/**
 * Ordered indexes of one project's posts for the four sorts of GET /posts, so a page costs a
 * binary search plus a walk of the page, never a sort. Sort orders (ties: creation time, then id,
 * in the direction of the sort):
 * - `oldest`: createdAt asc; `newest`: its reverse.
 * - `schedule_asc`: scheduled posts by scheduledAt asc, then unscheduled posts by createdAt asc.
 * - `schedule_desc`: scheduled posts by scheduledAt desc, then unscheduled posts by createdAt desc.
 * Deleted posts leave their key behind, so a cursor naming one still finds its place.
 */
export class PostIndex<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly tombstones = new Map<string, SortKey>();
  private readonly all = new SortedList<Entry<T>>(byCreation);
  private readonly scheduled = new SortedList<Entry<T>>(bySchedule);
  private readonly unscheduled = new SortedList<Entry<T>>(byCreation);
  private readonly runs: Record<PostSort, Run<T>[]>;

  /** `keepTombstones: false` for secondary indexes, whose cursors come from the primary index. */
  constructor(private readonly options: { keepTombstones: boolean } = { keepTombstones: true }) {
    const everything = () => true;
    const isScheduled = (key: SortKey) => key.scheduledMs !== null;
    const isUnscheduled = (key: SortKey) => key.scheduledMs === null;
    this.runs = {
      oldest: [{ list: this.all, reversed: false, holds: everything }],
      newest: [{ list: this.all, reversed: true, holds: everything }],
      schedule_asc: [
        { list: this.scheduled, reversed: false, holds: isScheduled },
        { list: this.unscheduled, reversed: false, holds: isUnscheduled },
      ],
      schedule_desc: [
        { list: this.scheduled, reversed: true, holds: isScheduled },
        { list: this.unscheduled, reversed: true, holds: isUnscheduled },
      ],
    };
  }

  get size(): number {
    return this.entries.size;
  }

  get(id: string): T | undefined {
    return this.entries.get(id)?.value;
  }

  /** The key of a live or deleted post, for cursors; undefined when the id was never here. */
  keyOf(id: string): SortKey | undefined {
    return this.entries.get(id) ?? this.tombstones.get(id);
  }

  values(): IterableIterator<T> {
    return (function* (entries: Map<string, Entry<T>>) {
      for (const entry of entries.values()) yield entry.value;
    })(this.entries);
  }

  /** Inserts or replaces (re-indexing when the key changed). */
  put(key: SortKey, value: T): void {
    this.unlink(key.id);
    const entry: Entry<T> = { id: key.id, createdMs: key.createdMs, scheduledMs: key.scheduledMs, value };
    this.entries.set(key.id, entry);
    this.tombstones.delete(key.id);
    this.all.insert(entry);
    (entry.scheduledMs === null ? this.unscheduled : this.scheduled).insert(entry);
  }

  delete(id: string): boolean {
    const entry = this.unlink(id);
    if (!entry) return false;
    if (this.options.keepTombstones) this.tombstones.set(id, { id, createdMs: entry.createdMs, scheduledMs: entry.scheduledMs });
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.tombstones.clear();
    this.all.clear();
    this.scheduled.clear();
    this.unscheduled.clear();
  }

  page(request: PageRequest<T>): PageResult<T> {
    const view = new View(this.runs[request.sort]);
    const found: Entry<T>[] = [];
    let last: Entry<T> | undefined;
    if (request.before) {
      for (const entry of view.backward(view.endBefore(request.before))) {
        if (found.length === request.limit) break;
        if (request.matches(entry.value)) found.push(entry);
      }
      found.reverse();
      // A page before the cursor is never the end: the cursor's own post follows it.
      last = found[found.length - 1];
    } else {
      for (const entry of view.forward(request.after ? view.startAfter(request.after) : 0)) {
        if (found.length === request.limit) break;
        if (request.matches(entry.value)) found.push(entry);
      }
      // Rule 3 of the spec: a final full page may be followed by an empty page.
      last = found.length === request.limit ? found[found.length - 1] : undefined;
    }
    return { items: found.map((entry) => entry.value), nextCursor: last?.id ?? null };
  }

  private unlink(id: string): Entry<T> | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.entries.delete(id);
    this.all.remove(entry);
    (entry.scheduledMs === null ? this.unscheduled : this.scheduled).remove(entry);
    return entry;
  }
}

/** A sort order as one virtual array over its runs. */
class View<T> {
  readonly length: number;

  constructor(private readonly runs: Run<T>[]) {
    this.length = runs.reduce((sum, run) => sum + run.list.length, 0);
  }

  /** Entries from view index `start` to the end. */
  *forward(start: number): Generator<Entry<T>> {
    let offset = 0;
    for (const run of this.runs) {
      const n = run.list.length;
      if (start < offset + n) {
        const local = Math.max(0, start - offset);
        yield* run.reversed ? run.list.iterate(n - 1 - local, -1) : run.list.iterate(local, 1);
      }
      offset += n;
    }
  }

  /** Entries before view index `end`, from the nearest one back to the first. */
  *backward(end: number): Generator<Entry<T>> {
    let offset = this.length;
    for (let r = this.runs.length - 1; r >= 0; r--) {
      const run = this.runs[r] as Run<T>;
      const n = run.list.length;
      offset -= n;
      if (end <= offset) continue;
      const local = Math.min(n, end - offset) - 1;
      yield* run.reversed ? run.list.iterate(n - 1 - local, 1) : run.list.iterate(local, -1);
    }
  }

  /** Index of the first entry that comes strictly after `key` in this order. */
  startAfter(key: SortKey): number {
    return this.locate(key, (run, probe) =>
      run.reversed ? run.list.length - run.list.lowerBound(probe) : run.list.upperBound(probe),
    );
  }

  /** Index one past the last entry that comes strictly before `key` in this order. */
  endBefore(key: SortKey): number {
    return this.locate(key, (run, probe) =>
      run.reversed ? run.list.length - run.list.upperBound(probe) : run.list.lowerBound(probe),
    );
  }

  private locate(key: SortKey, within: (run: Run<T>, probe: Entry<T>) => number): number {
    const probe = key as Entry<T>;
    let offset = 0;
    for (const run of this.runs) {
      if (run.holds(key)) return offset + within(run, probe);
      offset += run.list.length;
    }
    return offset;
  }
}
