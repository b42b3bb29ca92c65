import { mkdir, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import { isStateBranchName } from '../config/state-section.js';
import type { Config } from '../config/types.js';
import { InputError, StateError } from '../errors.js';
import { writeFileAtomic } from '../state/atomic.js';
import { fileAt, workTreeTop, type HomeRepository } from '../state/home-git.js';
import { prettyCanonicalJson } from '../state/hash.js';
import { parseState, readState, readStateText } from '../state/state-file.js';
import { terminalText } from '../text/terminal.js';
import { branchHome, PULLED_RECORD, stateTextAt } from './state-home-sync.js';

/**
 * The hand-off of the apply workflow: each calendar's job applies and hands its state on (a file
 * in an artifact), and one job after them records every state in its home in one commit and one
 * push (`recordStates`). The hand-off carries what that job needs to merge it into a home that
 * may have moved meanwhile: where the state lives, the state as applied, and the state as it was
 * read before the apply (the base of the three-way merge, so a record the apply removed stays
 * removed).
 */
export interface StateHandoff {
  formatVersion: 1;
  /** The calendar's folder, from the work tree's top (`.` for the top). */
  calendar: string;
  home: 'file' | 'branch';
  /** The branch the state is recorded on: the state branch, or for the file home the branch the job applied. */
  branch: string;
  /** The state file's path from the work tree's top, forward slashes. */
  path: string;
  state: string;
  /** The state as read before the apply; null when there was none. */
  base: string | null;
}

/** The hand-off's file in its folder. */
export const HANDOFF_FILE = 'postsync-state-handoff.json';

/** Two states of at most 64 MiB each (the bound of a state on the branch), and room for the rest. */
const MAX_HANDOFF_BYTES = 130 * 1024 * 1024;

/**
 * `postsync state handoff --out DIR`: writes the calendar's hand-off to DIR. `branch` is the
 * branch the checkout applied, where the file home records its state. Nothing is written when
 * the calendar has no state file (nothing was ever applied).
 */
export async function handOffState(config: Config, options: { out: string; remote: string; branch: string }): Promise<StateHandoff | null> {
  // With the journal of an apply that was stopped midway replayed: what the service acknowledged.
  const read = await readState(config.statePath);
  if (readStateText(config.statePath) === null && Object.keys(read.targets).length === 0) return null;
  const state = prettyCanonicalJson(read);
  const home = await branchHome(config, options.remote);
  const repository: HomeRepository = home?.repository ?? { cwd: config.root, remote: options.remote };
  const top = await workTreeTop(repository);
  const path = home?.path ?? relative(top, join(await realpath(config.root), relative(config.root, config.statePath))).split(sep).join('/');
  const calendar = relative(top, await realpath(config.root)).split(sep).join('/') || '.';
  let base: string | null;
  if (home === null) {
    base = await fileAt(repository, 'HEAD', path);
  } else {
    const pulled = await readFile(join(config.root, PULLED_RECORD), 'utf8').then((text) => (JSON.parse(text) as { commit?: unknown }).commit, () => null);
    base = typeof pulled === 'string' ? await stateTextAt(home, pulled).catch(() => null) : null;
  }
  const handoff: StateHandoff = { formatVersion: 1, calendar, home: home === null ? 'file' : 'branch', branch: home?.branch ?? options.branch, path, state, base };
  await mkdir(options.out, { recursive: true });
  await writeFileAtomic(join(options.out, HANDOFF_FILE), `${JSON.stringify(handoff)}\n`, { root: options.out });
  return handoff;
}

/**
 * A path the record may write: relative, forward slashes, no control character (git's
 * line-based input would split it), no `.` or `..` segment, nothing in
 * `.git`. A hand-off is a file of this run, but it crossed an artifact store: it is checked as
 * input.
 */
function safePath(path: string): boolean {
  const segments = path.split('/');
  return path !== '' && !path.includes('\\') && !/[\u0000-\u001f\u007f]/.test(path) && segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..') && segments[0]!.toLowerCase() !== '.git' && posix.normalize(path) === path;
}

/** Reads and checks the hand-off in `folder` (one artifact); null when the folder holds none. */
export async function readHandoff(folder: string): Promise<StateHandoff | null> {
  const file = join(folder, HANDOFF_FILE);
  const stats = await stat(file).catch(() => null);
  if (stats === null) return null;
  const where = terminalText(file);
  if (!stats.isFile() || stats.size > MAX_HANDOFF_BYTES) throw new InputError(`${where} is not a state hand-off (not a file, or larger than ${MAX_HANDOFF_BYTES} bytes)`);
  let data: Partial<StateHandoff>;
  try {
    data = JSON.parse(await readFile(file, 'utf8')) as Partial<StateHandoff>;
  } catch (error) {
    throw new InputError(`${where} is not a state hand-off: ${(error as Error).message}`);
  }
  const wrong = (field: string) => new InputError(`${where} is not a state hand-off postsync wrote: its field ${field} is missing or wrong`, { hint: 'The apply jobs write it with postsync state handoff; its artifact was changed or comes from another tool.' });
  if (data.formatVersion !== 1) throw wrong('formatVersion');
  if (data.home !== 'file' && data.home !== 'branch') throw wrong('home');
  if (typeof data.branch !== 'string' || !isStateBranchName(data.branch)) throw wrong('branch');
  if (typeof data.path !== 'string' || !safePath(data.path)) throw wrong('path');
  if (typeof data.calendar !== 'string' || (data.calendar !== '.' && !safePath(data.calendar))) throw wrong('calendar');
  if (typeof data.state !== 'string') throw wrong('state');
  if (data.base !== null && typeof data.base !== 'string') throw wrong('base');
  await parseState(data.state, `the state of ${data.path} in ${where}`);
  if (data.base !== null) await parseState(data.base, `the base state of ${data.path} in ${where}`);
  return { formatVersion: 1, calendar: data.calendar, home: data.home, branch: data.branch, path: data.path, state: data.state, base: data.base };
}

/** Every hand-off below `root`: one per artifact folder (as download-artifact lays them out), or in `root` itself. */
export async function readHandoffs(root: string): Promise<StateHandoff[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw new StateError(`cannot read the state hand-offs in ${terminalText(root)}: ${error.message}`);
  });
  const folders = [root, ...entries.filter((entry) => entry.isDirectory()).map((entry) => join(root, entry.name)).sort()];
  const handoffs = (await Promise.all(folders.map(readHandoff))).filter((handoff): handoff is StateHandoff => handoff !== null);
  const seen = new Set<string>();
  for (const handoff of handoffs) {
    const key = `${handoff.branch}\0${handoff.path}`;
    if (seen.has(key)) throw new InputError(`two state hand-offs in ${terminalText(root)} write ${terminalText(handoff.path)} on ${terminalText(handoff.branch)}`, { hint: 'Each calendar\'s apply job hands on its own state: one artifact per calendar.' });
    seen.add(key);
  }
  return handoffs;
}
