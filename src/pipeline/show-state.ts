import type { Config } from '../config/types.js';
import { fetchHome, fileAt } from '../state/home-git.js';
import { unconfirmedRecords, type StateSeal } from '../state/seal.js';
import { emptyStateFile, parseState, readStateText } from '../state/state-file.js';
import type { StateFile } from '../state/types.js';
import { compareText } from '../text/ordering.js';
import { branchHome } from './state-home-sync.js';

/** Where the state shown was read. */
export type StateWhere =
  | { kind: 'file'; path: string }
  /** `commit` null: the remote has no such branch yet; `found` false: the branch has no file for this calendar. */
  | { kind: 'branch'; branch: string; remote: string; path: string; commit: string | null; found: boolean };

export interface StateSectionSummary {
  targetId: string;
  posts: number;
  media: number;
  pending: number;
  uploads: number;
  /** Records without a valid seal, by kind; null when the seals were not checked (no key, or another target). */
  unconfirmed: { posts: string[]; media: string[]; pending: string[]; uploads: string[] } | null;
}

export interface StateShown {
  where: StateWhere;
  sections: StateSectionSummary[];
}

/**
 * `postsync state show`: the state of the calendar's home as it is there (the branch tip, read
 * without touching the working file; or the committed file), one summary per target section.
 * Given a seal, the records of its target are checked against it.
 */
export async function showState(config: Config, options: { remote: string; seal?: StateSeal }): Promise<StateShown> {
  const home = await branchHome(config, options.remote);
  let where: StateWhere;
  let state: StateFile;
  if (home === null) {
    where = { kind: 'file', path: config.statePath };
    const text = readStateText(config.statePath);
    state = text === null ? emptyStateFile() : await parseState(text, config.statePath);
  } else {
    const commit = await fetchHome(home.repository, home.branch);
    const text = commit === null ? null : await fileAt(home.repository, commit, home.path);
    where = { kind: 'branch', branch: home.branch, remote: options.remote, path: home.path, commit, found: text !== null };
    state = text === null ? emptyStateFile() : await parseState(text, `${home.path} on ${home.branch}`);
  }
  const sections = Object.entries(state.targets)
    .sort(([a], [b]) => compareText(a, b))
    .map(([targetId, section]): StateSectionSummary => {
      const unconfirmed = options.seal?.targetId === targetId ? unconfirmedRecords(section, options.seal) : null;
      return {
        targetId,
        posts: Object.keys(section.posts).length,
        media: Object.keys(section.media).length,
        pending: Object.keys(section.pending).length,
        uploads: Object.keys(section.uploads).length,
        unconfirmed: unconfirmed === null ? null : { posts: [...unconfirmed.posts], media: [...unconfirmed.media], pending: [...unconfirmed.pending], uploads: [...unconfirmed.uploads] },
      };
    });
  return { where, sections };
}
