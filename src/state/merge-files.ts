import { readFile } from 'node:fs/promises';
import { StateError } from '../errors.js';
import { writeFileAtomic } from './atomic.js';
import { prettyCanonicalJson } from './hash.js';
import { mergeStates, type StateMergeNote } from './merge.js';
import { emptyStateFile, parseState } from './state-file.js';
import type { StateFile } from './types.js';

/** The three files git hands a merge driver (`%O %A %B`); the result replaces `ours`. */
export interface StateMergeFiles {
  /** The common ancestor's version; git passes an empty file when there is none. */
  base: string;
  /** This branch's version (git's `%A`): the merged state is written here. */
  ours: string;
  /** The other branch's version. */
  theirs: string;
}

async function readVersion(path: string, label: string): Promise<StateFile | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new StateError(`cannot read ${label} state ${path}: ${(error as Error).message}`, { cause: error });
  }
  // An empty version: no common ancestor, or a side that has no state yet.
  if (text.trim() === '') return null;
  return parseState(text, `${path} (${label})`);
}

/**
 * Git's merge driver for the state file: reads the three versions (each must be a valid state,
 * or the merge is refused and `ours` is left as it is, so git reports a conflict), merges them
 * with `mergeStates` and writes the result over `ours` in the canonical format postsync writes.
 */
export async function mergeStateFiles(files: StateMergeFiles): Promise<StateMergeNote[]> {
  const [base, ours, theirs] = await Promise.all([readVersion(files.base, 'the common ancestor'), readVersion(files.ours, 'this branch'), readVersion(files.theirs, 'the other branch')]);
  const { state, notes } = mergeStates(base, ours ?? emptyStateFile(), theirs ?? emptyStateFile());
  await writeFileAtomic(files.ours, prettyCanonicalJson(state));
  return notes;
}
