import { lstat, readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { Config } from '../config/types.js';
import { InputError, StateError } from '../errors.js';
import { writeFileAtomic } from '../state/atomic.js';
import { prettyCanonicalJson } from '../state/hash.js';
import { commitFile, fetchHome, fileAt, fileSize, gitTracks, hasCommit, pushHome, workTreeTop, type HomeRepository } from '../state/home-git.js';
import { acquireLock } from '../state/lock.js';
import { untilPushed, type PushRetryPolicy, type RetryClock } from '../state/push-retry.js';
import { mergeStates, type StateMergeNote } from '../state/merge.js';
import { parseState, readStateText } from '../state/state-file.js';
import { terminalText } from '../text/terminal.js';

/** The branch home of a calendar as one command works on it. */
export interface BranchHome {
  repository: HomeRepository;
  branch: string;
  /** The state file's path on the branch: relative to the work tree's top, forward slashes. */
  path: string;
}

/** Which commit of the state branch the working file was last pulled from (or pushed as): the base of the next merge. */
interface PulledRecord {
  branch: string;
  /** null: the branch did not exist yet. */
  commit: string | null;
}

/** The record this clone keeps, or why there is none to believe. */
interface PulledReading {
  record: PulledRecord | undefined;
  /** Set when a record is there but not believed: said in the refusal it leads to. */
  distrust?: string;
}

/** A full commit id, SHA-1 or SHA-256: anything else (a ref name, an option) is not one this clone recorded. */
const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Kept beside the lock and the journal, never committed (`postsync init` ignores it). */
export const PULLED_RECORD = '.postsync/state-home.json';

/**
 * The most a state file on the branch may be: whoever can push to the branch could otherwise make
 * every pull and show read a file larger than Node.js can hold as text (git stores it compressed,
 * so it costs them nothing). Far above what the largest calendars write.
 */
const MAX_STATE_BYTES = 64 * 1024 * 1024;
const MIB = 1024 * 1024;

/** The text of the calendar's state file at `commit` of its branch; null when it has none there. */
export async function stateTextAt(home: BranchHome, commit: string): Promise<string | null> {
  const size = await fileSize(home.repository, commit, home.path);
  if (size === null) return null;
  if (size > MAX_STATE_BYTES) {
    throw new StateError(`the state file ${home.path} on ${home.branch} is ${(size / MIB).toFixed(1)} MiB: more than a state file can hold (at most ${MAX_STATE_BYTES / MIB} MiB)`, { hint: restoreHint(home) });
  }
  return fileAt(home.repository, commit, home.path);
}

/** What to do about a state on the branch that postsync cannot read: the working file is not where it came from. */
const restoreHint = (home: BranchHome) =>
  `The file on ${home.branch} did not come from postsync; postsync did not change anything. Restore the branch to the last commit postsync pushed (git log ${home.repository.remote}/${home.branch}), then run it again.`;

/** Parses the state read from the branch; `as` says which version it is in messages. */
export function parseHomeState(home: BranchHome, text: string, as = ''): ReturnType<typeof parseState> {
  return parseState(text, `${home.path} on ${home.branch}${as}`, { restoreHint: restoreHint(home) });
}

export async function branchHome(config: Config, remote: string): Promise<BranchHome | null> {
  if (config.stateHome.kind !== 'branch') return null;
  // git reads an argument that starts with `-` as an option (`--upload-pack=…` runs a program), and no remote is named so.
  if (remote.startsWith('-')) throw new InputError(`--remote ${terminalText(remote)}: a remote name cannot start with -`, { hint: 'Name a remote of this clone (git remote -v lists them); origin when left out.' });
  const repository = { cwd: config.root, remote };
  const top = await workTreeTop(repository);
  // git names the top by its real path: the project's path is made real too (a symlinked `-C`), so
  // the state's path on the branch is the one inside the repository, never a way out of it (`..`).
  const path = relative(top, join(await realpath(config.root), relative(config.root, config.statePath))).split(sep).join('/');
  if (path === '' || path.startsWith('../') || isAbsolute(path)) throw new InputError(`the state file ${config.statePath} is not inside the git work tree ${top}`, { hint: 'Run postsync state pull, push and show in a clone of the repository that holds the calendar.' });
  return { repository, branch: config.stateHome.branch, path };
}

async function readPulled(config: Config, home: BranchHome): Promise<PulledReading> {
  // Only a plain file this clone wrote: a link (committed, or to a device) is not a record of a pull made here.
  const stats = await lstat(join(config.root, PULLED_RECORD)).catch(() => null);
  if (stats === null || !stats.isFile()) return { record: undefined };
  // A tracked record came with a commit (a pull request's, another clone's pull): believing it would
  // let a push overwrite records this clone never saw.
  if (await gitTracks(home.repository, PULLED_RECORD)) {
    return { record: undefined, distrust: `git tracks ${PULLED_RECORD}, so it is not taken as this clone's record of its last pull (untrack it: git rm --cached ${PULLED_RECORD})` };
  }
  const text = await readFile(join(config.root, PULLED_RECORD), 'utf8').catch(() => null);
  if (text === null) return { record: undefined };
  // Unreadable: as if never pulled here (a push then refuses a branch that exists, unless --merge).
  const record = ((): Partial<PulledRecord> | null => {
    try {
      return JSON.parse(text) as Partial<PulledRecord>;
    } catch {
      return null;
    }
  })();
  const commitValid = (typeof record?.commit === 'string' && COMMIT_ID.test(record.commit)) || record?.commit === null;
  return { record: record?.branch === home.branch && commitValid ? { branch: home.branch, commit: record.commit ?? null } : undefined };
}

async function writePulled(config: Config, record: PulledRecord): Promise<void> {
  await writeFileAtomic(join(config.root, PULLED_RECORD), `${JSON.stringify(record, null, 2)}\n`, { root: config.root });
}

/** The three-way merge `postsync state merge` makes, of texts: base (null: none), the working file's, the home's. */
export async function mergeTexts(home: BranchHome, texts: { base: string | null; ours: string; theirs: string }): Promise<{ text: string; notes: StateMergeNote[] }> {
  const base = texts.base === null || texts.base.trim() === '' ? null : await parseHomeState(home, texts.base, ' (as last pulled)');
  const { state, notes } = mergeStates(base, await parseState(texts.ours, 'the working state file'), await parseHomeState(home, texts.theirs));
  return { text: prettyCanonicalJson(state), notes };
}

export type PullOutcome = { kind: 'no-branch' | 'no-file'; home: BranchHome } | { kind: 'pulled'; home: BranchHome; commit: string; notes: StateMergeNote[] };

/**
 * `postsync state pull`: the state file of the branch home → the working file, under the state
 * lock. `merge`: the home's records are merged into the working file entry by entry (as the merge
 * driver does) instead of replacing it. Without a branch or a file on it, the working file stays.
 */
export async function pullState(config: Config, options: { remote: string; merge: boolean }): Promise<PullOutcome> {
  const home = await requireBranchHome(config, options.remote, 'pull');
  const release = await acquireLock(config.statePath, { command: 'state pull', root: config.root, timezone: config.timezone });
  try {
    const previous = (await readPulled(config, home)).record;
    const tip = await fetchHome(home.repository, home.branch);
    const text = tip === null ? null : await stateTextAt(home, tip);
    if (tip === null || text === null) {
      await writePulled(config, { branch: home.branch, commit: tip });
      return { kind: tip === null ? 'no-branch' : 'no-file', home };
    }
    const working = readStateText(config.statePath);
    const merged = options.merge && working !== null ? await mergeTexts(home, { base: await baseText(home, previous), ours: working, theirs: text }) : { text: (await parseHomeState(home, text), text), notes: [] };
    await writeFileAtomic(config.statePath, merged.text, { root: config.root });
    await writePulled(config, { branch: home.branch, commit: tip });
    return { kind: 'pulled', home, commit: tip, notes: merged.notes };
  } finally {
    await release();
  }
}

async function baseText(home: BranchHome, pulled: PulledRecord | undefined): Promise<string | null> {
  if (pulled?.commit == null || !(await hasCommit(home.repository, pulled.commit))) return null;
  return stateTextAt(home, pulled.commit);
}

export async function requireBranchHome(config: Config, remote: string, verb: string): Promise<BranchHome> {
  const home = await branchHome(config, remote);
  if (home !== null) return home;
  throw new InputError(`the state of this calendar is committed on the default branch (state home \`file\`): there is no state branch to ${verb}`, {
    hint: 'git pull and git push carry its state file. To keep the state on a branch of its own: postsync state move-home --to branch',
  });
}

export type PushOutcome = { kind: 'unchanged' | 'pushed'; home: BranchHome; commit: string; created: boolean; notes: StateMergeNote[] };

/**
 * `postsync state push`: the working file → the branch home, as one commit that changes that file
 * alone (other calendars' files on the branch stay). A home that moved since the last pull is
 * refused unless `merge`: then its records are merged in entry by entry first. A push the remote
 * rejects (another writer created or moved the branch in the same instant) changed nothing there:
 * the loop fetches the new tip, merges again and pushes again, with backoff and jitter, until its
 * time bound (`untilPushed`). Git refuses a push that is not a fast-forward, so nothing another
 * run pushed is ever overwritten.
 */
export async function pushState(config: Config, options: { remote: string; merge: boolean; message: string; retry?: { policy?: PushRetryPolicy; clock?: RetryClock } }): Promise<PushOutcome> {
  const home = await requireBranchHome(config, options.remote, 'push to');
  const release = await acquireLock(config.statePath, { command: 'state push', root: config.root, timezone: config.timezone });
  try {
    const notes: StateMergeNote[] = [];
    return await untilPushed<PushOutcome>(async () => {
      let working = readStateText(config.statePath);
      if (working === null) throw new InputError(`there is no state file ${config.statePath} to push`, { hint: 'postsync state pull brings the state of the branch; an apply writes one.' });
      await parseState(working, config.statePath);
      const { record: pulled, distrust } = await readPulled(config, home);
      const tip = await fetchHome(home.repository, home.branch);
      const current = tip === null ? null : await stateTextAt(home, tip);
      if (tip !== (pulled?.commit ?? null) && current !== null && current !== working) {
        if (!options.merge) throw movedSincePull(home, { pulled, tip, distrust });
        const merged = await mergeTexts(home, { base: await baseText(home, pulled), ours: working, theirs: current });
        await writeFileAtomic(config.statePath, merged.text, { root: config.root });
        notes.push(...merged.notes);
        working = merged.text;
      }
      if (tip !== null && current === working) {
        await writePulled(config, { branch: home.branch, commit: tip });
        return { kind: 'done', value: { kind: 'unchanged', home, commit: tip, created: false, notes } };
      }
      const commit = await commitFile(home.repository, { parent: tip, path: home.path, text: working, message: options.message });
      const pushed = await pushHome(home.repository, commit, home.branch);
      if (pushed.kind === 'rejected') return pushed;
      if (pushed.kind === 'refused') throw new StateError(`cannot push the state branch ${home.branch} to ${home.repository.remote}: ${pushed.reason}`, { hint: 'The remote\'s rules refuse the update: let the workflow\'s token push to this branch (a ruleset\'s bypass list, or no protection on it).' });
      await writePulled(config, { branch: home.branch, commit });
      return { kind: 'done', value: { kind: 'pushed', home, commit, created: tip === null, notes } };
    }, { branch: home.branch, ...options.retry });
  } finally {
    await release();
  }
}

function movedSincePull(home: BranchHome, seen: { pulled: PulledRecord | undefined; tip: string | null; distrust?: string | undefined }): InputError {
  const { pulled, tip, distrust } = seen;
  const since = pulled === undefined ? `this clone never pulled it${distrust === undefined ? '' : `: ${distrust}`}` : pulled.commit === null ? 'it did not exist at the last pull' : `last pulled at ${pulled.commit.slice(0, 12)}`;
  return new InputError(`the state branch ${home.branch} moved (now at ${tip?.slice(0, 12)}; ${since}): pushing would overwrite records another run wrote`, {
    hint: 'postsync state push --merge merges its records into yours entry by entry and pushes the union; postsync state pull replaces your working file with it.',
  });
}
