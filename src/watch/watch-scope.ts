import { basename, dirname, join, relative, sep } from 'node:path';
import { CONFIG_FILE_NAMES } from '../config/config-file.js';
import { isInSnippets } from '../content/snippet-files.js';
import { isInside } from '../text/paths.js';

/** The fixed places watch looks at; they move only when postsync.yaml is edited. */
export interface ScopeRoots {
  /** Absolute project root. */
  root: string;
  contentDir: string;
  statePath: string;
  /** Absolute; `<root>/snippets` when left out. Its files are snippets even inside the content folder. */
  snippetsDir?: string;
}

/** What a changed path means to watch. */
export type PathRole = 'config' | 'state' | 'post' | 'content-folder' | 'other';

/** Hidden entries and node_modules are never content (the same rule as discovering post files). */
function isSkippedName(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/**
 * Decides which paths the file watcher looks at, so that a large project folder is not watched
 * whole: the content folder (minus hidden entries and node_modules), postsync.yaml, the state
 * file, every media file the posts reference and the files beside it (a file copied in later is
 * seen), and every folder above those (a deleted and re-created folder is seen by its parent).
 */
export class WatchScope {
  #roots: ScopeRoots;
  #configPaths: Set<string>;
  #mediaFiles = new Set<string>();
  #mediaFolders = new Set<string>();
  #ancestors = new Set<string>();

  constructor(roots: ScopeRoots) {
    this.#roots = roots;
    this.#configPaths = configPathsOf(roots.root);
    this.#rebuildAncestors();
  }

  get roots(): ScopeRoots {
    return this.#roots;
  }

  /** postsync.yaml moved the content folder or the state file: returns the paths to add. */
  setRoots(roots: ScopeRoots): string[] {
    const wasRelevant = this.#snapshot();
    this.#roots = roots;
    this.#configPaths = configPathsOf(roots.root);
    this.#rebuildAncestors();
    return this.#newlyRelevant([roots.contentDir, roots.statePath], wasRelevant);
  }

  /**
   * Replaces the referenced media files (absolute paths under the root). Returns the paths the
   * watcher must add: for each new file, the top-most path on its way that was not watched yet.
   */
  setMedia(files: Iterable<string>): string[] {
    const next = new Set([...files].filter((file) => isInside(this.#roots.root, file)));
    if (next.size === this.#mediaFiles.size && [...next].every((file) => this.#mediaFiles.has(file))) return [];
    const wasRelevant = this.#snapshot();
    const added = [...next].filter((file) => !this.#mediaFiles.has(file));
    this.#mediaFiles = next;
    this.#mediaFolders = new Set([...next].map((file) => dirname(file)));
    this.#rebuildAncestors();
    return this.#newlyRelevant(added, wasRelevant);
  }

  /** For each path, the top-most path on its way from the root that was not watched before. */
  #newlyRelevant(paths: readonly string[], wasRelevant: (path: string) => boolean): string[] {
    const toAdd = new Set<string>();
    for (const path of paths) {
      const first = this.#chain(path).find((step) => !wasRelevant(step));
      if (first !== undefined) toAdd.add(first);
    }
    return [...toAdd];
  }

  /** Whether the watcher should look at `path` (absolute). Used as chokidar's `ignored` filter, negated. */
  isRelevant(path: string): boolean {
    const { root, statePath } = this.#roots;
    if (path === root || path === statePath || this.#configPaths.has(path) || this.#ancestors.has(path)) return true;
    if (this.#isInContent(path)) return true;
    if (this.#mediaFiles.has(path)) return true;
    return this.#mediaFolders.has(dirname(path)) && !isSkippedName(basename(path));
  }

  /** What a changed path is; `folder` tells a directory event from a file event. */
  roleOf(path: string, options: { folder: boolean }): PathRole {
    if (this.#configPaths.has(path)) return 'config';
    if (path === this.#roots.statePath) return 'state';
    // A snippet in the content folder (`content: .`) is watched as media is: the posts that use it are read again.
    if (this.#isInContent(path) && !isInSnippets(this.#roots, path)) {
      if (options.folder) return 'content-folder';
      if (path.endsWith('.md')) return 'post';
    }
    return 'other';
  }

  isMediaFile(path: string): boolean {
    return this.#mediaFiles.has(path);
  }

  /** `path` is the content folder or below it, through no hidden or node_modules entry. */
  #isInContent(path: string): boolean {
    const { contentDir } = this.#roots;
    if (!isInside(contentDir, path)) return false;
    const rel = relative(contentDir, path);
    return rel === '' || !rel.split(sep).some(isSkippedName);
  }

  /** The folders from just below the root down to `path`, then `path` itself. */
  #chain(path: string): string[] {
    const chain: string[] = [];
    for (let current = path; current !== this.#roots.root && isInside(this.#roots.root, current); current = dirname(current)) chain.unshift(current);
    return chain;
  }

  #rebuildAncestors(): void {
    const { root, contentDir, statePath } = this.#roots;
    this.#ancestors = new Set();
    for (const path of [contentDir, statePath, ...this.#mediaFiles]) {
      for (let current = dirname(path); isInside(root, current) && !this.#ancestors.has(current); current = dirname(current)) {
        this.#ancestors.add(current);
        if (current === root) break;
      }
    }
  }

  /** A frozen copy of the current relevance test (to compare before and after a change). */
  #snapshot(): (path: string) => boolean {
    const copy = new WatchScope(this.#roots);
    copy.#mediaFiles = new Set(this.#mediaFiles);
    copy.#mediaFolders = new Set(this.#mediaFolders);
    copy.#rebuildAncestors();
    return (path) => copy.isRelevant(path);
  }
}

/** `postsync.yaml` and `postsync.yml` at the root. */
function configPathsOf(root: string): Set<string> {
  return new Set(CONFIG_FILE_NAMES.map((name) => join(root, name)));
}
