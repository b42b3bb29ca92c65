import { relativePosix } from '../text/paths.js';
import type { FileChange, FileChangeKind } from './events.js';
import type { FsEvent } from './file-watcher.js';
import type { PathRole, WatchScope } from './watch-scope.js';

/** One path of a burst: its role, and what happened to it overall (null: created and gone again). */
export interface PathChange {
  path: string;
  role: PathRole;
  folder: boolean;
  /** Null for a temporary file that came and went within the burst. */
  change: FileChange | null;
}

const isAdd = (kind: FsEvent['kind']) => kind === 'add' || kind === 'addDir';
const isRemove = (kind: FsEvent['kind']) => kind === 'unlink' || kind === 'unlinkDir';

/**
 * Folds a burst of events into one change per path, in the order paths first appeared. An atomic
 * save (temp file, then rename over the post) reads as `saved`; an editor's temp file that
 * appears and disappears reads as nothing.
 */
export function foldEvents(events: readonly FsEvent[], scope: WatchScope): PathChange[] {
  const byPath = new Map<string, FsEvent[]>();
  for (const event of events) byPath.set(event.path, [...(byPath.get(event.path) ?? []), event]);
  return [...byPath].map(([path, seen]) => {
    const folder = seen.some((event) => event.kind === 'addDir' || event.kind === 'unlinkDir');
    const kind = overallKind(seen[0]!.kind, seen.at(-1)!.kind, folder);
    const file = relativePosix(scope.roots.root, path) || '.';
    return { path, role: scope.roleOf(path, { folder }), folder, change: kind === null ? null : { file, kind } };
  });
}

function overallKind(first: FsEvent['kind'], last: FsEvent['kind'], folder: boolean): FileChangeKind | null {
  if (isRemove(last)) {
    if (isAdd(first)) return null;
    return folder ? 'folder-deleted' : 'deleted';
  }
  if (folder) return 'folder-added';
  return isAdd(first) ? 'added' : 'saved';
}
