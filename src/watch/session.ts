import type { Config } from '../config/types.js';
import { relativePosix } from '../text/paths.js';
import type { LivePostsById, Plan } from '../plan/types.js';
import { NO_FOREIGN_OWNERS, type ForeignOwners } from '../plan/foreign-owners.js';
import { planDesired } from '../pipeline/build-plan.js';
import { foreignOwners } from '../pipeline/foreign-owners.js';
import type { Connection } from '../pipeline/connect.js';
import { draftReadiness, type DraftReadiness } from '../pipeline/draft-readiness.js';
import { createPlanCaches, type PlanCaches } from '../pipeline/plan-caches.js';
import { accountFactsLoader } from '../pipeline/account-facts.js';
import { checkDesired, type DesiredSide } from '../pipeline/read-desired.js';
import type { RunCache } from '../cache/run-cache.js';
import { unconfirmedRecords } from '../state/seal.js';
import { readState, sectionFor, stateSectionHash } from '../state/state-file.js';
import type { ProjectState } from '../state/types.js';
import { ContentSnapshot } from './content-snapshot.js';
import { DraftApplier } from './draft-applier.js';
import type { FileChange, PlanTrigger, WatchEvent, WatchListener } from './events.js';
import { foldEvents, type PathChange } from './file-changes.js';
import { folderChanged, mediaChanged, postChanged, startBatch, type Batch, type BatchReads, type BatchReport } from './batch.js';
import { FileWatcher } from './file-watcher.js';
import { ChangeSignatures, isEmptyDelta, planDelta } from './plan-delta.js';
import { ConfigReloader } from './config-reloader.js';
import { RemoteSnapshot } from './remote-snapshot.js';
import { WatchScope } from './watch-scope.js';
import { WorkQueue, type Work } from './work-queue.js';

/** Quiet time that ends a burst of file events (an editor's save is several). */
export const DEFAULT_DEBOUNCE_MS = 50;
export const DEFAULT_REFRESH_SECONDS = 60;

export interface WatchOptions {
  config: Config;
  /** Reads postsync.yaml (with the same environment and flags) again; throws InvalidConfigError. */
  reloadConfig: () => Promise<Config>;
  connection: Pick<Connection, 'client' | 'project' | 'seal'>;
  /** Seconds between two reads of the remote posts and account rules. */
  refreshSeconds?: number;
  /** Apply draft-only changes after each plan (`--apply-drafts`). */
  applyDrafts?: boolean;
  debounceMs?: number;
  /** The reading memo (`.postsync/cache`), saved by the caller when the session ends; absent, the session keeps one in memory. */
  memo?: RunCache;
  onEvent: WatchListener;
  clock?: () => Date;
}

/**
 * `postsync watch`: files are watched, a save re-reads only what it touched and plans again
 * against remote data read at start, on an interval and on request, never once per save.
 * Work is serialized (WorkQueue): events that come while a plan is made go into the next one.
 */
export class WatchSession {
  readonly #options: WatchOptions;
  #config: Config;
  readonly #scope: WatchScope;
  readonly #caches: PlanCaches;
  readonly #content: ContentSnapshot;
  readonly #remote: RemoteSnapshot;
  /** Remote media learned by content for adoption, fetched once per session. */
  readonly #learnedMedia = new Map<string, string>();
  readonly #signatures = new ChangeSignatures();
  readonly #drafts: DraftApplier;
  readonly #configReloader: ConfigReloader;
  #watcher: FileWatcher | null = null;
  #section: ProjectState | null = null;
  #stateHash = '';
  /** The posts other calendars of the repository record, as read with this calendar's state. */
  #foreignOwners: ForeignOwners = NO_FOREIGN_OWNERS;
  #plan: Plan | null = null;
  /** The desired side of the latest plan. */
  #desired: DesiredSide | null = null;
  readonly #queue: WorkQueue;
  #closed = false;
  /** Posts scheduled up to this time have been checked against it ("not in the past"). */
  #timeChecked = new Date(0);
  #refreshTimer: NodeJS.Timeout | undefined;

  private constructor(options: WatchOptions) {
    this.#options = options;
    this.#config = options.config;
    this.#scope = new WatchScope(options.config);
    this.#caches = createPlanCaches(options.memo);
    this.#content = new ContentSnapshot({ config: options.config, caches: this.#caches, accountFacts: accountFactsLoader(options.connection.client) });
    this.#remote = new RemoteSnapshot(options.connection.client);
    this.#drafts = new DraftApplier({ client: options.connection.client, seal: options.connection.seal, emit: (event) => this.#emit(event) });
    this.#configReloader = new ConfigReloader({ read: options.reloadConfig, emit: (event) => this.#emit(event), now: () => this.#now() });
    this.#queue = new WorkQueue({ run: (work) => this.#process(work), onError: (error) => this.#emit({ type: 'error', at: this.#now(), during: 'plan', error }) });
  }

  /** Reads everything, makes the first plan (reported as `started`), then watches. */
  static async start(options: WatchOptions): Promise<WatchSession> {
    const session = new WatchSession(options);
    try {
      await session.#start();
    } catch (error) {
      await session.close();
      throw error;
    }
    return session;
  }

  /**
   * What the latest plan was made from besides the plan (for `watch --calendar`): the
   * configuration, its desired side, the remote posts as last read, and the state section. Read
   * it in the listener of a `started` or `plan` event.
   */
  planned(): { config: Config; desired: DesiredSide; live: LivePostsById; state: ProjectState; media: PlanCaches['media'] } {
    return { config: this.#config, desired: this.#desired!, live: this.#remote.live, state: this.#section!, media: this.#caches.media };
  }

  /** Reads the remote again and re-plans (the `r` key). */
  refresh(): void {
    this.#queue.push({ refresh: 'manual' });
  }

  /** Stops watching; resolves once the work in progress (an apply included) has finished. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#refreshTimer);
    await this.#watcher?.close();
    await this.#queue.close();
  }

  async #start(): Promise<void> {
    const now = this.#now();
    const state = await readState(this.#config.statePath);
    this.#adoptState(sectionFor(state, this.#options.connection.project));
    // Read again whenever this calendar's state file is read again.
    this.#foreignOwners = await foreignOwners(this.#config.root, this.#options.connection.project);
    this.#watcher = await FileWatcher.start({
      root: this.#config.root,
      isRelevant: (path) => this.#scope.isRelevant(path),
      debounceMs: this.#options.debounceMs ?? DEFAULT_DEBOUNCE_MS,
      unlinkQuietMs: 3 * (this.#options.debounceMs ?? DEFAULT_DEBOUNCE_MS),
      onBatch: (events) => this.#queue.push({ events }),
      onError: (error) => this.#emit({ type: 'error', at: this.#now(), during: 'watch', error }),
    });
    await Promise.all([this.#content.readAll(now), this.#remote.prefetch(Object.values(this.#config.accounts))]);
    this.#timeChecked = now;
    await this.#remote.refresh(this.#content.result(), this.#section!.posts);
    const { plan, drafts } = await this.#makePlan(now);
    this.#plan = plan;
    this.#trackMedia();
    const refreshSeconds = this.#options.refreshSeconds ?? DEFAULT_REFRESH_SECONDS;
    const watching = { contentDir: relativePosix(this.#config.root, this.#config.contentDir) || '.', postFiles: this.#content.size, mediaFiles: this.#content.mediaFiles().size, refreshSeconds };
    this.#emit({ type: 'started', at: now, plan, drafts, watching });
    this.#scheduleRefresh();
    if (this.#options.applyDrafts) this.#queue.then(() => this.#applyDrafts(this.#plan!));
    this.#queue.open();
  }

  /** One batch of work: gathered path by path by role, then read, then planned. */
  async #process(work: Work): Promise<void> {
    const now = this.#now();
    const batch = startBatch(work);
    if (work.refresh === 'interval') {
      // The interval only re-reads posts whose time may have come.
      batch.reads.files.push(...this.#content.filesScheduledBetween(this.#timeChecked, now));
      this.#timeChecked = now;
    }
    for (const path of foldEvents(work.events, this.#scope)) await this.#take(path, batch);
    const stateMoved = await this.#catchUp(batch.reads, { refreshRemote: work.refresh !== null, now });
    if (stateMoved) batch.report.mustShow = true;
    const trigger: PlanTrigger = { files: batch.report.files, refreshed: work.refresh, stateChanged: stateMoved && !work.afterApply, draftsApplied: work.afterApply };
    await this.#replan(batch.report, trigger, now);
    // Right after applying, only a save by the user may apply again (the state file written by
    // the apply does not count): no apply → re-plan → apply loop, whatever the plan says.
    if (this.#options.applyDrafts && (!work.afterApply || trigger.files.length > 0)) await this.#applyDrafts(this.#plan!);
  }

  /** One path of a burst, by its role. */
  async #take({ path, role, change }: PathChange, batch: Batch): Promise<void> {
    switch (role) {
      case 'config':
        return this.#configChanged(change, batch);
      case 'state':
        batch.reads.state = true;
        return;
      case 'post':
        return postChanged(path, change, batch);
      case 'content-folder':
        return folderChanged(path, change, batch);
      case 'other':
        this.#caches.media.forget(path);
        return mediaChanged(path, change, batch, { content: this.#content, scope: this.#scope, root: this.#config.root });
    }
  }

  /** postsync.yaml: an invalid one is reported on its own (the plan it would show is the old one); a valid one reads everything again. */
  async #configChanged(change: FileChange | null, batch: Batch): Promise<void> {
    const reloaded = await this.#reloadConfig();
    if (reloaded.adopted) batch.report.show(change);
    batch.reads.all ||= reloaded.adopted;
    batch.reads.state ||= reloaded.stateMoved;
  }

  /**
   * Reads again what the batch needs, before it plans: the state file (moved, the remote is read
   * again too, and the files whose ownership changed), the remote, the files. Returns whether the
   * state moved.
   */
  async #catchUp(reads: BatchReads, { refreshRemote, now }: { refreshRemote: boolean; now: Date }): Promise<boolean> {
    let stateMoved = false;
    if (reads.state) {
      const state = await this.#readStateFile();
      if (state.changed) {
        stateMoved = true;
        reads.files.push(...state.reread);
      }
    }
    if (refreshRemote || stateMoved) await this.#refreshRemote(now);
    if (reads.all) {
      await this.#content.readAll(now);
      this.#timeChecked = now;
    } else {
      await this.#content.readFiles([...new Set(reads.files)], now);
      for (const folder of reads.folders) await this.#content.syncFolder(folder, now);
    }
    return stateMoved;
  }

  /** Plans again and reports the plan when it moved or the batch must be shown. */
  async #replan(report: BatchReport, trigger: PlanTrigger, now: Date): Promise<void> {
    const previous = this.#plan!;
    const { plan, drafts } = await this.#makePlan(now);
    this.#plan = plan;
    this.#trackMedia();
    const delta = planDelta(previous, plan, report.affected, this.#signatures);
    if (trigger.files.length === 0 && !isEmptyDelta(delta)) trigger.files.push(...report.quiet);
    if (report.mustShow || !isEmptyDelta(delta)) this.#emit({ type: 'plan', at: now, trigger, plan, drafts, previous, delta });
  }

  /** The pipeline's plan, fed with what the session holds: the files as last read, the remote and the state as last read; and the drafts' readiness. */
  async #makePlan(now: Date): Promise<{ plan: Plan; drafts: DraftReadiness[] }> {
    const content = this.#content.result();
    await this.#remote.prepare(content, this.#section!.posts);
    const schedule = { config: this.#config, state: this.#section!, live: this.#remote.live, now, prune: false };
    const desired = await checkDesired({ content, rules: this.#remote.rules, media: this.#caches.media, schedule });
    this.#desired = desired;
    const { project: target, seal } = this.#options.connection;
    const section = this.#section!;
    const state = { section, hash: this.#stateHash, unconfirmed: unconfirmedRecords(section, seal), foreignOwners: this.#foreignOwners };
    const remote = { live: this.#remote.live, capabilities: desired.rules.capabilities };
    const plan = await planDesired({ project: target, desired, remote, state, prune: false, now, timezone: this.#config.timezone }, { learnedMedia: this.#learnedMedia });
    return { plan, drafts: draftReadiness(desired) };
  }

  async #applyDrafts(plan: Plan): Promise<void> {
    const outcome = await this.#drafts.apply(plan, { live: this.#remote.live, section: this.#section!, config: this.#config });
    if (outcome === 'applied' || outcome === 'state-moved') this.#queue.push({ afterApply: true });
  }

  async #refreshRemote(now: Date): Promise<void> {
    try {
      await this.#remote.refresh(this.#content.result(), this.#section!.posts);
      this.#drafts.remoteRead();
    } catch (error) {
      this.#emit({ type: 'error', at: this.#now(), during: 'refresh', error: error instanceof Error ? error : new Error(String(error)) });
    } finally {
      this.#scheduleRefresh();
    }
  }

  #scheduleRefresh(): void {
    clearTimeout(this.#refreshTimer);
    if (this.#closed) return;
    const seconds = this.#options.refreshSeconds ?? DEFAULT_REFRESH_SECONDS;
    this.#refreshTimer = setTimeout(() => this.#queue.push({ refresh: 'interval' }), seconds * 1000);
  }

  /** Reads the state file again; a file that cannot be trusted right now (mid-merge) is reported and skipped. */
  async #readStateFile(): Promise<{ changed: boolean; reread: string[] }> {
    try {
      const section = sectionFor(await readState(this.#config.statePath), this.#options.connection.project);
      this.#foreignOwners = await foreignOwners(this.#config.root, this.#options.connection.project);
      if (stateSectionHash(section) === this.#stateHash) return { changed: false, reread: [] };
      return { changed: true, reread: this.#adoptState(section) };
    } catch (error) {
      this.#emit({ type: 'error', at: this.#now(), during: 'state', error: error instanceof Error ? error : new Error(String(error)) });
      return { changed: false, reread: [] };
    }
  }

  /** Returns the post files to read again (their key's ownership changed). */
  #adoptState(section: ProjectState): string[] {
    this.#section = section;
    this.#stateHash = stateSectionHash(section);
    return this.#content.setOwnedKeys(new Set(Object.keys(section.posts)));
  }

  async #reloadConfig(): Promise<{ adopted: boolean; stateMoved: boolean }> {
    const next = await this.#configReloader.reload(this.#config);
    if (next === null) return { adopted: false, stateMoved: false };
    const stateMoved = next.statePath !== this.#config.statePath;
    this.#config = next;
    this.#content.setConfig(next);
    this.#watcher?.add(this.#scope.setRoots(next));
    return { adopted: true, stateMoved };
  }

  #trackMedia(): void {
    // Snippet files are watched as media files are: a change re-reads the posts that use them.
    this.#watcher?.add(this.#scope.setMedia([...this.#content.mediaFiles(), ...this.#content.snippetFiles()]));
  }

  #emit(event: WatchEvent): void {
    this.#options.onEvent(event);
  }

  #now(): Date {
    return (this.#options.clock ?? (() => new Date()))();
  }
}
