import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Config } from '../config/types.js';
import { InputError, StateError } from '../errors.js';
import { writeFileAtomic } from '../state/atomic.js';
import { prettyCanonicalJson } from '../state/hash.js';
import { commitFile, fetchHome, fileAt, hasCommit, pushHome, workTreeTop, type HomeRepository } from '../state/home-git.js';
import { acquireLock } from '../state/lock.js';
import { mergeStates, type StateMergeNote } from '../state/merge.js';
import { parseState, readStateText } from '../state/state-file.js';

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

/** Kept beside the lock and the journal, never committed (`postsync init` ignores it). */
export const PULLED_RECORD = '.postsync/state-home.json';

export async function branchHome(config: Config, remote: string): Promise<BranchHome | null> {
  if (config.stateHome.kind !== 'branch') return null;
  const repository = { cwd: config.root, remote };
  const top = await workTreeTop(repository);
  return { repository, branch: config.stateHome.branch, path: relative(top, config.statePath).split(sep).join('/') };
}

async function readPulled(config: Config, branch: string): Promise<PulledRecord | undefined> {
  const text = await readFile(join(config.root, PULLED_RECORD), 'utf8').catch(() => null);
  if (text === null) return undefined;
  // Unreadable: as if never pulled here (a push then refuses a branch that exists, unless --merge).
  const record = ((): Partial<PulledRecord> | null => {
    try {
      return JSON.parse(text) as Partial<PulledRecord>;
    } catch {
      return null;
    }
  })();
  return record?.branch === branch && (typeof record.commit === 'string' || record.commit === null) ? { branch, commit: record.commit } : undefined;
}

async function writePulled(config: Config, record: PulledRecord): Promise<void> {
  await writeFileAtomic(join(config.root, PULLED_RECORD), `${JSON.stringify(record, null, 2)}\n`, { root: config.root });
}

/** The three-way merge `postsync state merge` makes, of texts: base (null: none), the working file's, the home's. */
async function mergeTexts(texts: { base: string | null; ours: string; theirs: string; where: string }): Promise<{ text: string; notes: StateMergeNote[] }> {
  const base = texts.base === null || texts.base.trim() === '' ? null : await parseState(texts.base, `${texts.where} (as last pulled)`);
  const { state, notes } = mergeStates(base, await parseState(texts.ours, 'the working state file'), await parseState(texts.theirs, texts.where));
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
    const previous = await readPulled(config, home.branch);
    const tip = await fetchHome(home.repository, home.branch);
    const text = tip === null ? null : await fileAt(home.repository, tip, home.path);
    if (tip === null || text === null) {
      await writePulled(config, { branch: home.branch, commit: tip });
      return { kind: tip === null ? 'no-branch' : 'no-file', home };
    }
    const where = `${home.path} on ${home.branch}`;
    const working = readStateText(config.statePath);
    const merged = options.merge && working !== null ? await mergeTexts({ base: await baseText(home, previous), ours: working, theirs: text, where }) : { text: (await parseState(text, where), text), notes: [] };
    await writeFileAtomic(config.statePath, merged.text, { root: config.root });
    await writePulled(config, { branch: home.branch, commit: tip });
    return { kind: 'pulled', home, commit: tip, notes: merged.notes };
  } finally {
    await release();
  }
}

async function baseText(home: BranchHome, pulled: PulledRecord | undefined): Promise<string | null> {
  if (pulled?.commit == null || !(await hasCommit(home.repository, pulled.commit))) return null;
  return fileAt(home.repository, pulled.commit, home.path);
}

export async function requireBranchHome(config: Config, remote: string, verb: string): Promise<BranchHome> {
  const home = await branchHome(config, remote);
  if (home !== null) return home;
  throw new InputError(`the state of this calendar is committed on the default branch (state home \`file\`): there is no state branch to ${verb}`, {
    hint: 'git pull and git push carry its state file. To keep the state on a branch of its own: postsync state move-home --to branch',
  });
}

export type PushOutcome = { kind: 'unchanged' | 'pushed'; home: BranchHome; commit: string; created: boolean; notes: StateMergeNote[] };

/** Attempts of a push that finds the branch moved and merges: as many as the apply workflow's rebase loop makes. */
const PUSH_ATTEMPTS = 5;

/**
 * `postsync state push`: the working file → the branch home, as one commit that changes that file
 * alone (other calendars' files on the branch stay). A home that moved since the last pull is
 * refused unless `merge`: then its records are merged in entry by entry first, and a push that
 * loses a race is tried again from the new tip. Git refuses a push that is not a fast-forward, so
 * nothing another run pushed is ever overwritten.
 */
export async function pushState(config: Config, options: { remote: string; merge: boolean; message: string }): Promise<PushOutcome> {
  const home = await requireBranchHome(config, options.remote, 'push to');
  const release = await acquireLock(config.statePath, { command: 'state push', root: config.root, timezone: config.timezone });
  try {
    const notes: StateMergeNote[] = [];
    for (let attempt = 1; ; attempt++) {
      let working = readStateText(config.statePath);
      if (working === null) throw new InputError(`there is no state file ${config.statePath} to push`, { hint: 'postsync state pull brings the state of the branch; an apply writes one.' });
      await parseState(working, config.statePath);
      const pulled = await readPulled(config, home.branch);
      const tip = await fetchHome(home.repository, home.branch);
      const current = tip === null ? null : await fileAt(home.repository, tip, home.path);
      if (tip !== (pulled?.commit ?? null) && current !== null && current !== working) {
        if (!options.merge) throw movedSincePull(home, pulled, tip);
        const merged = await mergeTexts({ base: await baseText(home, pulled), ours: working, theirs: current, where: `${home.path} on ${home.branch}` });
        await writeFileAtomic(config.statePath, merged.text, { root: config.root });
        notes.push(...merged.notes);
        working = merged.text;
      }
      if (tip !== null && current === working) {
        await writePulled(config, { branch: home.branch, commit: tip });
        return { kind: 'unchanged', home, commit: tip, created: false, notes };
      }
      const commit = await commitFile(home.repository, { parent: tip, path: home.path, text: working, message: options.message });
      if ((await pushHome(home.repository, commit, home.branch)) === 'pushed') {
        await writePulled(config, { branch: home.branch, commit });
        return { kind: 'pushed', home, commit, created: tip === null, notes };
      }
      if (!options.merge || attempt >= PUSH_ATTEMPTS) throw new StateError(`the state branch ${home.branch} moved while the state was pushed (attempt ${attempt})`, { hint: 'Run postsync state push --merge again.' });
    }
  } finally {
    await release();
  }
}

function movedSincePull(home: BranchHome, pulled: PulledRecord | undefined, tip: string | null): InputError {
  const since = pulled === undefined ? 'this clone never pulled it' : pulled.commit === null ? 'it did not exist at the last pull' : `last pulled at ${pulled.commit.slice(0, 12)}`;
  return new InputError(`the state branch ${home.branch} moved (now at ${tip?.slice(0, 12)}; ${since}): pushing would overwrite records another run wrote`, {
    hint: 'postsync state push --merge merges its records into yours entry by entry and pushes the union; postsync state pull replaces your working file with it.',
  });
}
