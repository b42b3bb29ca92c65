import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaFacts } from '../content/types.js';
import type { ContentConfig } from '../content/read-file.js';
import type { AccountFacts } from '../house-rules/index.js';
import { canonicalJson } from '../state/hash.js';
import { compareText } from '../text/ordering.js';
import { guardWrite } from '../write-guard/guard-write.js';
import { CacheSection, type SectionCodec, type SectionIdentity } from './cache-section.js';
import { cacheDistrust } from './cache-trust.js';
import { PostMemo, type PostEntry } from './post-memo.js';
import { postRowsCodec } from './post-rows.js';
import { StampedFacts, type StampedEntry } from './file-stamps.js';

/** Under the project root; it holds its own `.gitignore`, so no project needs an entry for it. */
export const CACHE_DIR = '.postsync/cache';

/**
 * `.postsync/cache/`: the reading memo of content reading, one file per section: `posts` (each
 * post file's reading, PostMemo) and `media` (each media file's facts, for MediaMemo), by file stamp. The CLI
 * opens it when a command starts and saves it once when the command ends. It stays because it
 * saves at least a tenth of the command it serves (bench/README.md, Ledger). Nothing here is page
 * markup. A section is read when first asked for and written by `save` (only if it changed). A
 * disabled cache (`--no-cache`, a build without dist/build-id.json, or one cacheDistrust refuses)
 * hands out nothing.
 */
export class RunCache {
  readonly #dir: string | null;
  readonly #build: string;
  /** The project root: the cache's writes stay in it (guardWrite). */
  readonly #root: string;
  /** Told, once, why the cache is not used or not saved this run. */
  readonly #onNotice: (line: string) => void;
  /** By name; asked again with another context (watch: postsync.yaml edited), a section starts over. */
  readonly #sections = new Map<string, { context: string; section: CacheSection<unknown> }>();

  private constructor(where: { dir: string | null; root: string }, build: string, onNotice: (line: string) => void) {
    this.#dir = where.dir;
    this.#root = where.root;
    this.#build = build;
    this.#onNotice = onNotice;
  }

  /**
   * `build` stands in for dist/build-id.json (tests run from source, where there is none). A cache
   * this machine may not have written (cacheDistrust) is neither read nor written, said through `onNotice`.
   */
  static open(root: string, options: { enabled: boolean; build?: string; onNotice?: (line: string) => void }): RunCache {
    const build = options.enabled ? (options.build ?? buildId()) : null;
    if (build === null) return RunCache.disabled();
    const dir = join(root, CACHE_DIR);
    const distrust = cacheDistrust(root, dir);
    if (distrust !== null) {
      options.onNotice?.(distrust);
      return RunCache.disabled();
    }
    return new RunCache({ dir, root }, build, options.onNotice ?? (() => undefined));
  }

  static disabled(): RunCache {
    return new RunCache({ dir: null, root: '' }, '', () => undefined);
  }

  /** The reading memo under this content config and these account facts (entries made under others are not used). */
  posts(config: ContentConfig, accountFacts?: ReadonlyMap<string, AccountFacts>): PostMemo | undefined {
    const section = this.#section<PostEntry>('posts', contentContext(config, accountFacts), postRowsCodec);
    return section === undefined ? undefined : new PostMemo(section);
  }

  /** The facts of media files, by real path and file stamp (`MediaMemo`'s `kept`): whatever the content config. */
  mediaFacts(): StampedFacts<MediaFacts> | undefined {
    const media = this.#section<StampedEntry<MediaFacts>>('media', '');
    return media === undefined ? undefined : new StampedFacts(media);
  }

  /** Writes the sections that changed, never through a link; never throws (see CacheSection.save). */
  async save(): Promise<void> {
    const sections = [...this.#sections.values()].map((open) => open.section);
    if (this.#dir === null || !sections.some((section) => section.dirty)) return;
    const ignore = join(this.#dir, '.gitignore');
    try {
      for (const path of [ignore, ...sections.map((section) => section.path)]) await guardWrite(path, { root: this.#root });
    } catch (error) {
      this.#onNotice(`the cache is not saved: ${(error as Error).message}`);
      return;
    }
    await mkdir(this.#dir, { recursive: true })
      // 'wx' (O_EXCL): never opened through a link, and one already there is kept.
      .then(() => writeFile(ignore, '# postsync cache: safe to delete, never committed\n*\n', { flag: 'wx' }))
      .catch(() => undefined);
    await Promise.all(sections.map((section) => section.save()));
  }

  #section<T>(name: string, context: string, codec?: SectionCodec<T>): CacheSection<T> | undefined {
    if (this.#dir === null) return undefined;
    const open = this.#sections.get(name);
    if (open?.context === context) return open.section as CacheSection<T>;
    const identity: SectionIdentity = { build: this.#build, context };
    const section = CacheSection.open<T>(join(this.#dir, `${name}.json`), identity, codec);
    this.#sections.set(name, { context, section: section as CacheSection<unknown> });
    return section;
  }
}

/**
 * What content reading depends on besides the files: the config (the calendar policies included:
 * another `vars:` gives other texts) and the facts of the accounts (platform, handle) that
 * templates and rules may use. Entries made under another context are not used.
 */
function contentContext(config: ContentConfig, accountFacts: ReadonlyMap<string, AccountFacts> = new Map()): string {
  const accounts = Object.entries(config.accounts).sort(([a], [b]) => compareText(a, b));
  const facts = [...accountFacts].sort(([a], [b]) => compareText(a, b));
  const { rules = [], slots = {}, vars = {}, hashtags = {} } = config;
  return JSON.stringify({ root: config.root, contentDir: config.contentDir, timezone: config.timezone, accounts, policies: canonicalJson({ rules, slots, vars, hashtags }), facts });
}

/**
 * The id `npm run build` writes to dist/build-id.json; without it (a bare `tsc`), nothing is
 * cached. This module runs from dist/src/cache (as tsc wrote it) or from a chunk of the bundled
 * CLI in dist/cli: the file is one or two folders up.
 */
function buildId(): string | null {
  for (const candidate of ['../build-id.json', '../../build-id.json']) {
    try {
      const { id } = JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as { id?: unknown };
      if (typeof id === 'string' && id !== '') return id;
    } catch {
      // Not here: try the next place.
    }
  }
  return null;
}
