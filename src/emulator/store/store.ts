import { EmulatorClock } from './clock.js';
import type { RateLimit } from '../fixture/fixture.js';
import type { AccountRecord, IdempotencyEntry, IdempotencyOutcome, ProjectSettings, StoredMedia, StoredPost } from './model.js';
import { PostIndex, type SortKey } from './post-index.js';
import { SortedList } from './sorted-list.js';

/** How long an Idempotency-Key is remembered by default, in emulator time (`--idempotency-ttl`). */
export const DEFAULT_IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/**
 * One journal line. Records are state upserts, so replaying them in order rebuilds the state and
 * a compacted journal is simply the current state written as records.
 */
export type JournalRecord =
  | { t: 'post'; p: string; post: StoredPost }
  | { t: 'post-del'; p: string; id: string }
  | { t: 'media'; p: string; media: StoredMedia }
  | { t: 'idem'; p: string; key: string; outcome: IdempotencyOutcome }
  | { t: 'clock'; offsetMs: number };

export class Project {
  readonly id: string;
  readonly rateLimit?: RateLimit;
  readonly accountList: readonly AccountRecord[];
  readonly posts = new PostIndex<StoredPost>();
  /** The same posts split by status, so a `status` filter walks only matching posts. */
  private readonly byStatus = new Map<string, PostIndex<StoredPost>>();
  readonly media = new Map<string, StoredMedia>();
  readonly idempotency = new Map<string, IdempotencyEntry>();
  /** Bumped on every post change, so derived views (analytics) know when to rebuild. */
  revision = 0;
  private readonly accounts: ReadonlyMap<string, AccountRecord>;

  constructor(settings: ProjectSettings) {
    this.id = settings.id;
    this.rateLimit = settings.rateLimit;
    this.accountList = settings.accounts;
    this.accounts = new Map(settings.accounts.map((account) => [account.id.toLowerCase(), account]));
  }

  account(id: string): AccountRecord | undefined {
    return this.accounts.get(id.toLowerCase());
  }

  /** The index of the posts with one status (empty when there are none). */
  postsWithStatus(status: string): PostIndex<StoredPost> {
    let index = this.byStatus.get(status);
    if (!index) {
      index = new PostIndex<StoredPost>({ keepTombstones: false });
      this.byStatus.set(status, index);
    }
    return index;
  }

  /** `key`: the post's sort key when the caller has it (it is `sortKeyOf(post)`). */
  putPost(post: StoredPost, key: SortKey = sortKeyOf(post)): void {
    const previous = this.posts.get(post.id);
    if (previous && previous.status !== post.status) this.postsWithStatus(previous.status).delete(post.id);
    this.posts.put(key, post);
    this.postsWithStatus(post.status).put(key, post);
    this.revision++;
  }

  deletePost(id: string): void {
    const previous = this.posts.get(id);
    if (previous) this.postsWithStatus(previous.status).delete(id);
    this.posts.delete(id);
    this.revision++;
  }

  clearPosts(): void {
    this.posts.clear();
    this.byStatus.clear();
    this.revision++;
  }
}

interface DueEntry {
  dueMs: number;
  projectId: string;
  postId: string;
}

const byDue = (a: DueEntry, b: DueEntry): number =>
  a.dueMs - b.dueMs || (a.projectId < b.projectId ? -1 : a.projectId > b.projectId ? 1 : 0) || (a.postId < b.postId ? -1 : a.postId > b.postId ? 1 : 0);

export function sortKeyOf(post: StoredPost): SortKey {
  return { id: post.id, createdMs: Date.parse(post.createdAt), scheduledMs: post.scheduledAt === null ? null : Date.parse(post.scheduledAt) };
}

/** When a post next needs the publisher: its schedule, or the next retry of a waiting target. */
function dueMsOf(post: StoredPost): number | null {
  if (post.status === 'scheduled' && post.scheduledAt !== null) return Date.parse(post.scheduledAt);
  if (post.status !== 'publishing') return null;
  const retries = post.targets.filter((t) => t.status === 'waiting' && t.nextAttemptAt).map((t) => Date.parse(t.nextAttemptAt as string));
  return retries.length > 0 ? Math.min(...retries) : null;
}

/**
 * All emulator state. Every change goes through a method here, which also hands the change to
 * the journal sink (when --data is set), so state and journal cannot drift apart.
 */
export class EmulatorStore {
  readonly projects = new Map<string, Project>();
  private readonly due = new SortedList<DueEntry>(byDue);
  private readonly dueByPost = new Map<string, DueEntry>();
  private sink: ((record: JournalRecord) => void) | null = null;
  /** How long a finished Idempotency-Key is remembered, in emulator milliseconds; 0 forgets it at once. */
  private readonly idempotencyTtlMs: number;

  constructor(
    readonly clock: EmulatorClock,
    settings: readonly ProjectSettings[],
    options: { idempotencyTtlSeconds?: number } = {},
  ) {
    for (const project of settings) this.projects.set(project.id, new Project(project));
    this.idempotencyTtlMs = (options.idempotencyTtlSeconds ?? DEFAULT_IDEMPOTENCY_TTL_SECONDS) * 1000;
  }

  /** Where change records go from now on (the journal); null while replaying. */
  setSink(sink: ((record: JournalRecord) => void) | null): void {
    this.sink = sink;
  }

  project(id: string): Project {
    const project = this.projects.get(id);
    if (!project) throw new Error(`unknown project ${id}`);
    return project;
  }

  putPost(projectId: string, post: StoredPost, key?: SortKey): void {
    this.project(projectId).putPost(post, key);
    this.reschedule(projectId, post.id, dueMsOf(post));
    this.sink?.({ t: 'post', p: projectId, post });
  }

  deletePost(projectId: string, id: string): void {
    this.project(projectId).deletePost(id);
    this.reschedule(projectId, id, null);
    this.sink?.({ t: 'post-del', p: projectId, id });
  }

  putMedia(projectId: string, media: StoredMedia): void {
    this.project(projectId).media.set(media.id, media);
    this.sink?.({ t: 'media', p: projectId, media });
  }

  /** In memory only: an in-progress marker must die with the process. See journalIdempotency. */
  putIdempotency(projectId: string, key: string, entry: IdempotencyEntry): void {
    this.project(projectId).idempotency.set(key, entry);
  }

  /** Journals a finished outcome; the caller marks it done in memory once it is durable. */
  journalIdempotency(projectId: string, key: string, outcome: IdempotencyOutcome): void {
    this.sink?.({ t: 'idem', p: projectId, key, outcome });
  }

  dropIdempotency(projectId: string, key: string): void {
    this.project(projectId).idempotency.delete(key);
  }

  /** A live idempotency entry (expired ones are forgotten on the way). */
  idempotencyEntry(projectId: string, key: string): IdempotencyEntry | undefined {
    const project = this.project(projectId);
    const entry = project.idempotency.get(key);
    if (entry?.state === 'done' && this.clock.now() - entry.createdMs >= this.idempotencyTtlMs) {
      project.idempotency.delete(key);
      return undefined;
    }
    return entry;
  }

  recordClock(): void {
    this.sink?.({ t: 'clock', offsetMs: this.clock.offset });
  }

  /** Whether a post is due at or before `nowMs`: a request then publishes it first. */
  hasDue(nowMs: number): boolean {
    const first = this.due.first();
    return first !== undefined && first.dueMs <= nowMs;
  }

  /** The earliest post due at or before `nowMs`, removed from the queue; the publisher re-queues as needed. */
  takeDue(nowMs: number): { projectId: string; postId: string; dueMs: number } | undefined {
    const first = this.due.first();
    if (!first || first.dueMs > nowMs) return undefined;
    this.due.remove(first);
    this.dueByPost.delete(`${first.projectId}/${first.postId}`);
    return first;
  }

  /** Applies records read from the journal (written there already: they go to no sink). */
  replay(records: Iterable<JournalRecord>): void {
    const sink = this.sink;
    this.sink = null;
    try {
      for (const record of records) this.apply(record);
    } finally {
      this.sink = sink;
    }
  }

  /** How many records `snapshot()` yields, about: to tell when a journal is worth compacting. */
  recordCount(): number {
    let count = 1;
    for (const project of this.projects.values()) count += project.posts.size + project.media.size + project.idempotency.size;
    return count;
  }

  private apply(record: JournalRecord): void {
    switch (record.t) {
      case 'post':
        return this.putPost(record.p, record.post);
      case 'post-del':
        return this.deletePost(record.p, record.id);
      case 'media':
        return this.putMedia(record.p, record.media);
      case 'idem':
        return this.putIdempotency(record.p, record.key, { state: 'done', ...record.outcome });
      case 'clock':
        return this.clock.restoreOffset(record.offsetMs);
    }
  }

  /** The whole state as records, oldest posts first: the content of a compacted journal. */
  *snapshot(): Generator<JournalRecord> {
    yield { t: 'clock', offsetMs: this.clock.offset };
    const now = this.clock.now();
    for (const project of this.projects.values()) {
      for (const media of project.media.values()) yield { t: 'media', p: project.id, media };
      const posts = project.posts.page({ sort: 'oldest', limit: Number.MAX_SAFE_INTEGER, matches: () => true }).items;
      for (const post of posts) yield { t: 'post', p: project.id, post };
      for (const [key, entry] of project.idempotency) {
        if (entry.state !== 'done' || now - entry.createdMs >= this.idempotencyTtlMs) continue;
        const { state: _state, ...outcome } = entry;
        yield { t: 'idem', p: project.id, key, outcome };
      }
    }
  }

  /** Forgets every post, media object and idempotency key (POST /_emulator/reset). */
  clear(): void {
    for (const project of this.projects.values()) {
      project.clearPosts();
      project.media.clear();
      project.idempotency.clear();
    }
    this.due.clear();
    this.dueByPost.clear();
  }

  private reschedule(projectId: string, postId: string, dueMs: number | null): void {
    const id = `${projectId}/${postId}`;
    const previous = this.dueByPost.get(id);
    if (previous) {
      this.due.remove(previous);
      this.dueByPost.delete(id);
    }
    if (dueMs === null) return;
    const entry = { dueMs, projectId, postId };
    this.due.insert(entry);
    this.dueByPost.set(id, entry);
  }
}
