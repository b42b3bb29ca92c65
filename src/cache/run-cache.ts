import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConfigFileMemo, RawConfig } from '../config/config-file.js';
import type { MediaFacts } from '../content/media-cache.js';
import type { ContentConfig } from '../content/read-file.js';
import type { MediaProbe } from '../media/probe.js';
import type { KnownState, KnownStates } from '../state/state-file.js';
import { compareText } from '../text/ordering.js';
import { CacheSection, type SectionCodec, type SectionIdentity } from './cache-section.js';
import { postColumns } from './post-columns.js';
import { PostCache, type PostEntry } from './post-cache.js';
import { StampedFacts, type StampedEntry } from './file-stamps.js';

/** Under the project root; it holds its own `.gitignore`, so no project needs an entry for it. */
export const CACHE_DIR = '.postsync/cache';

/**
 * What one run may take from earlier runs and leave to later ones, in `.postsync/cache/`:
 * summaries of post files and their check results (by file stamp and digest), media hashes and
 * probes (by file stamp), state files already validated (by digest). Each section is read when first asked for and written by `save` (only if it changed).
 * A disabled cache (`--no-cache`, or a build without dist/build-id.json) hands out nothing.
 */
export class RunCache {
  readonly #dir: string | null;
  readonly #build: string;
  /** By name; asked again with another context (watch: postsync.yaml edited), a section starts over. */
  readonly #sections = new Map<string, { context: string; section: CacheSection<unknown> }>();

  private constructor(dir: string | null, build: string) {
    this.#dir = dir;
    this.#build = build;
  }

  /** `build` stands in for dist/build-id.json (tests run from source, where there is none). */
  static open(root: string, options: { enabled: boolean; build?: string }): RunCache {
    const build = options.enabled ? (options.build ?? buildId()) : null;
    return build === null ? RunCache.disabled() : new RunCache(join(root, CACHE_DIR), build);
  }

  static disabled(): RunCache {
    return new RunCache(null, '');
  }

  /** What runs under this content config found out about post files (entries made under another config are not used). */
  posts(config: ContentConfig): PostCache | undefined {
    const section = this.#section<PostEntry>('posts', contentContext(config), postColumns);
    return section === undefined ? undefined : new PostCache(section);
  }

  /** postsync.yaml as read without a problem, by file name and digest. */
  configFiles(): ConfigFileMemo | undefined {
    const files = this.#section<{ digest: string; data: RawConfig }>('config', '');
    // Time zone names depend on the time zone data this Node carries.
    const zones = this.#section<string>('zones', process.versions.tz ?? process.versions.icu ?? '');
    if (files === undefined || zones === undefined) return undefined;
    return {
      get: (file, digest) => {
        const kept = files.get(file);
        return kept?.digest === digest ? kept.data : undefined;
      },
      set: (file, digest, data) => files.set(file, { digest, data }),
      timeZone: (name, canonical) => {
        const kept = zones.get(name);
        if (kept !== undefined) return kept;
        const found = canonical(name);
        if (found !== undefined) zones.set(name, found);
        return found;
      },
    };
  }

  /** sha256, size and type of media files, by real path. */
  mediaFacts(): StampedFacts<MediaFacts> | undefined {
    const section = this.#section<StampedEntry<MediaFacts>>('media', '');
    return section === undefined ? undefined : new StampedFacts(section);
  }

  /** Dimensions, duration and codecs of media files, by path. */
  probes(): StampedFacts<MediaProbe> | undefined {
    const section = this.#section<StampedEntry<MediaProbe>>('probes', '');
    return section === undefined ? undefined : new StampedFacts(section);
  }

  /** State files validated by this build, with their section hashes, by path and digest. */
  knownStates(): KnownStates | undefined {
    const section = this.#section<{ digest: string; known: KnownState }>('states', '');
    if (section === undefined) return undefined;
    return {
      get: (path, digest) => {
        const kept = section.get(path);
        return kept?.digest === digest ? kept.known : undefined;
      },
      set: (path, digest, known) => section.set(path, { digest, known }),
    };
  }

  /** Writes the sections that changed; never throws (see CacheSection.save). */
  async save(): Promise<void> {
    const sections = [...this.#sections.values()].map((open) => open.section);
    if (this.#dir === null || !sections.some((section) => section.dirty)) return;
    await mkdir(this.#dir, { recursive: true })
      .then(() => writeFile(join(this.#dir!, '.gitignore'), '# postsync cache: safe to delete, never committed\n*\n', { flag: 'wx' }))
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

/** What content reading depends on besides the files: entries made under another config are not used. */
function contentContext(config: ContentConfig): string {
  const accounts = Object.entries(config.accounts).sort(([a], [b]) => compareText(a, b));
  return JSON.stringify({ root: config.root, contentDir: config.contentDir, timezone: config.timezone, accounts });
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
