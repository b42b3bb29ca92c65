import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { discoverPostFiles } from '../content/discover.js';
import { FileLookups } from '../content/file-lookups.js';
import { isInside, relativePosix } from '../text/paths.js';
import { PostMemo } from '../cache/post-memo.js';
import { combineContentResults, readContent, readPostFiles, type ContentResult } from '../content/read-content.js';
import type { ContentConfig, ContentFileResult, ReadContentOptions } from '../content/read-file.js';
import type { AccountFacts } from '../house-rules/index.js';
import type { PlanCaches } from '../pipeline/plan-caches.js';

/**
 * The content side of watch: one read result per post file, kept between saves, so a save
 * re-reads only the files it touched and recombines (keys are unique across files, so the
 * combination is always redone). Paths given in and out are absolute; results use
 * project-relative files like every diagnostic.
 */
export class ContentSnapshot {
  #config: ContentConfig;
  readonly #caches: PlanCaches;
  /** The reading memo (`.postsync/cache` when the session has one, else memory). */
  #memo: PostMemo;
  #ownedKeys: ReadonlySet<string> = new Set();
  readonly #files = new Map<string, ContentFileResult>();
  /** Set while the content folder does not exist: the result that says so. */
  #missingFolder: ContentResult | null = null;
  #combined: ContentResult | null = null;
  #media: Set<string> | null = null;

  /** The accounts' platforms and handles, read the first time a post needs them (once per session). */
  readonly #accountFacts: (() => Promise<ReadonlyMap<string, AccountFacts>>) | undefined;

  constructor(options: { config: ContentConfig; caches: PlanCaches; accountFacts?: () => Promise<ReadonlyMap<string, AccountFacts>> }) {
    this.#config = options.config;
    this.#caches = options.caches;
    this.#accountFacts = options.accountFacts;
    this.#memo = this.#memoFor(options.config);
  }

  /** Posts read under another config are other posts (a time zone, an alias): their readings are not used. */
  setConfig(config: ContentConfig): void {
    this.#config = config;
    this.#memo = this.#memoFor(config);
  }

  /**
   * Keys recorded in state may keep a past scheduledAt; returns the post files (absolute) whose
   * key changed hands, which must be read again (a repeat's file with errors too: the keys of its
   * occurrences are not known then).
   */
  setOwnedKeys(keys: ReadonlySet<string>): string[] {
    const before = this.#ownedKeys;
    this.#ownedKeys = keys;
    const flipped = (key: string | null) => key !== null && before.has(key) !== keys.has(key);
    const refusedAsPast = (result: ContentFileResult) => result.posts.length === 0 && result.diagnostics.some((d) => d.code === 'scheduled-at-past');
    return [...this.#files.values()].filter((result) => flipped(result.key) || result.posts.some((post) => flipped(post.key)) || refusedAsPast(result)).map((result) => this.#absolute(result.file));
  }

  /** Reads every post file again (start, postsync.yaml edited, periodic refresh). */
  async readAll(now: Date): Promise<void> {
    this.#files.clear();
    this.#changed();
    this.#missingFolder = null;
    if (!(await isFolder(this.#config.contentDir))) {
      // readContent words the diagnostic for a missing content folder.
      this.#missingFolder = await readContent(this.#readOptions(now));
      return;
    }
    const files = await discoverPostFiles(this.#config);
    await this.#read(files.map((file) => this.#absolute(file)), now);
  }

  /** Re-reads the given post files; a file that no longer exists is dropped. */
  async readFiles(paths: readonly string[], now: Date): Promise<void> {
    if (this.#missingFolder !== null) return this.readAll(now);
    await this.#read(paths, now);
  }

  /** A folder in the content folder appeared or vanished: align the files below it with the disk. */
  async syncFolder(folder: string, now: Date): Promise<void> {
    if (this.#missingFolder !== null || !(await isFolder(this.#config.contentDir))) return this.readAll(now);
    const onDisk = (await isFolder(folder)) ? await discoverPostFiles({ ...this.#config, contentDir: folder }) : [];
    const present = new Set(onDisk);
    for (const file of [...this.#files.keys()]) {
      if (isInside(folder, this.#absolute(file)) && !present.has(file)) this.#drop(file);
    }
    await this.#read(onDisk.filter((file) => !this.#files.has(file)).map((file) => this.#absolute(file)), now);
  }

  has(path: string): boolean {
    return this.#files.has(this.#relative(path));
  }

  /** Post files (absolute) that use `path`: that media or snippet file, or any below that folder. */
  filesUsingMedia(path: string): string[] {
    const uses = (file: string) => isInside(path, this.#absolute(file));
    return [...this.#files.values()]
      .filter((result) => result.posts[0]?.media.some((media) => uses(media.path)) === true || result.snippets?.some(uses) === true)
      .map((result) => this.#absolute(result.file));
  }

  /** Post files (absolute) with errors: a media file they wait for may just have appeared. */
  filesWithErrors(): string[] {
    return [...this.#files.values()].filter((result) => result.posts.length === 0).map((result) => this.#absolute(result.file));
  }

  /**
   * Post files (absolute) scheduled in (`after`, `until`]: read before that time came, they may
   * now lie in the past (which a post not applied yet cannot be scheduled in).
   */
  filesScheduledBetween(after: Date, until: Date): string[] {
    const due = (scheduledAt: string | null | undefined) => {
      const at = scheduledAt == null ? Number.NaN : Date.parse(scheduledAt);
      return at > after.getTime() && at <= until.getTime();
    };
    return [...this.#files.values()].filter((result) => result.posts.some((post) => due(post.shape.scheduledAt))).map((result) => this.#absolute(result.file));
  }

  /** Every media file (absolute) the valid posts reference. */
  mediaFiles(): ReadonlySet<string> {
    if (this.#media === null) {
      this.#media = new Set();
      // The posts of a file (a repeat's occurrences) share its media.
      for (const result of this.#files.values()) for (const media of result.posts[0]?.media ?? []) this.#media.add(this.#absolute(media.path));
    }
    return this.#media;
  }

  /** Every snippet file (absolute) a post file includes, found or not: watched as media files are. */
  snippetFiles(): Set<string> {
    const snippets = new Set<string>();
    for (const result of this.#files.values()) for (const snippet of result.snippets ?? []) snippets.add(this.#absolute(snippet));
    return snippets;
  }

  /** Number of post files read. */
  get size(): number {
    return this.#files.size;
  }

  /** All files combined, as `readContent` would return them. */
  result(): ContentResult {
    if (this.#missingFolder !== null) return this.#missingFolder;
    this.#combined ??= combineContentResults([...this.#files.keys()].sort().map((file) => this.#files.get(file)!));
    return this.#combined;
  }

  async #read(paths: readonly string[], now: Date): Promise<void> {
    const files: string[] = [];
    for (const path of paths) {
      const file = this.#relative(path);
      const stats = await stat(path).catch(() => undefined);
      if (stats?.isFile() === true) files.push(file);
      else this.#drop(file);
    }
    const results = await readPostFiles(files, this.#readOptions(now));
    results.forEach((result, index) => this.#files.set(files[index]!, result));
    if (results.length > 0) this.#changed();
  }

  #drop(file: string): void {
    if (this.#files.delete(file)) this.#changed();
  }

  #changed(): void {
    this.#combined = null;
    this.#media = null;
  }

  /** Options for one batch of reads (file-system answers are shared within it, never across batches). */
  #readOptions(now: Date): ReadContentOptions {
    return {
      config: this.#config,
      now,
      lookups: new FileLookups(),
      media: this.#caches.media,
      acceptPastSchedule: ({ key }) => this.#ownedKeys.has(key),
      memo: this.#memo,
      ...(this.#accountFacts === undefined ? {} : { accountFacts: this.#accountFacts }),
    };
  }

  #memoFor(config: ContentConfig): PostMemo {
    return this.#caches.memo?.posts(config) ?? PostMemo.inMemory();
  }

  #absolute(file: string): string {
    return join(this.#config.root, file);
  }

  #relative(path: string): string {
    return relativePosix(this.#config.root, path);
  }
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}
