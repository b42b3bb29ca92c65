import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError, StateError } from '../errors.js';

/** A git repository and the remote its state branch lives on. */
export interface HomeRepository {
  /** Any folder inside the work tree (git finds the repository from there). */
  cwd: string;
  /** The remote the state branch is fetched from and pushed to (`origin` by default). */
  remote: string;
}

interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Generous: a fetch or push over a slow network; a hung git must not hang the command forever. */
const GIT_TIMEOUT_MS = 120_000;

function runGit(repository: HomeRepository, args: readonly string[], input?: string, env: Record<string, string> = {}): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    // No terminal prompt: a missing credential fails at once with git's own message.
    const child = spawn('git', args, { cwd: repository.cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...env }, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], timeout: GIT_TIMEOUT_MS });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => reject(new InputError(`cannot run git: ${error.message}`, { hint: 'postsync state pull, push and show run git: install it and run them in a clone of the repository.' })));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    // A git that exits before reading all of its input fails on its own; the broken pipe is not the news.
    child.stdin?.on('error', () => {});
    child.stdin?.end(input);
  });
}

async function gitOrThrow(repository: HomeRepository, args: readonly string[], input?: string, env?: Record<string, string>): Promise<string> {
  const run = await runGit(repository, args, input, env);
  if (run.code !== 0) throw new StateError(`git ${args[0]} failed: ${run.stderr.trim() || `exit ${run.code}`}`);
  return run.stdout;
}

/** The work tree's top folder; an InputError outside a git work tree. */
export async function workTreeTop(repository: HomeRepository): Promise<string> {
  const run = await runGit(repository, ['rev-parse', '--show-toplevel']);
  if (run.code !== 0) {
    throw new InputError(`${repository.cwd} is not in a git work tree, so its state branch cannot be read or written`, { hint: 'Run postsync state pull, push and show in a clone of the repository (the remote `origin` holds the state branch).' });
  }
  return run.stdout.trim();
}

/**
 * The repository's default branch as this clone knows it: the remote's HEAD (a clone records it),
 * else the branch checked out (a new repository's first branch, as \`init.defaultBranch\` named it);
 * null outside a git repository, or on a detached HEAD with no remote HEAD.
 */
export async function defaultBranch(repository: HomeRepository): Promise<{ branch: string; from: string } | null> {
  const remoteHead = await runGit(repository, ['symbolic-ref', '--quiet', '--short', `refs/remotes/${repository.remote}/HEAD`]).catch(() => null);
  const prefix = `${repository.remote}/`;
  if (remoteHead?.code === 0 && remoteHead.stdout.trim().startsWith(prefix)) return { branch: remoteHead.stdout.trim().slice(prefix.length), from: `${repository.remote}/HEAD` };
  const head = await runGit(repository, ['symbolic-ref', '--quiet', '--short', 'HEAD']).catch(() => null);
  if (head?.code === 0 && head.stdout.trim() !== '') return { branch: head.stdout.trim(), from: 'the branch checked out' };
  return null;
}

/** Where a fetched state branch is kept in this clone: out of the way of branches and tags. */
export const localRef = (branch: string) => `refs/postsync/home/${branch}`;

/**
 * Fetches the tip of `branch` (that ref alone, no history: depth 1) and returns its commit, or
 * null when the remote has no such branch yet.
 */
export async function fetchHome(repository: HomeRepository, branch: string): Promise<string | null> {
  const run = await runGit(repository, ['fetch', '--quiet', '--no-tags', '--depth=1', repository.remote, `+refs/heads/${branch}:${localRef(branch)}`]);
  if (run.code !== 0) {
    if (/couldn't find remote ref/i.test(run.stderr)) return null;
    throw new StateError(`cannot fetch the state branch ${branch} from ${repository.remote}: ${run.stderr.trim()}`);
  }
  return (await gitOrThrow(repository, ['rev-parse', '--verify', `${localRef(branch)}^{commit}`])).trim();
}

/** The text of `path` (relative to the work tree's top, forward slashes) at `commit`; null when it has none. */
export async function fileAt(repository: HomeRepository, commit: string, path: string): Promise<string | null> {
  const run = await runGit(repository, ['cat-file', 'blob', `${commit}:${path}`]);
  return run.code === 0 ? run.stdout : null;
}

/** The size in bytes of `path` at `commit`, without reading it; null when it has no such file. */
export async function fileSize(repository: HomeRepository, commit: string, path: string): Promise<number | null> {
  const run = await runGit(repository, ['cat-file', '-s', `${commit}:${path}`]);
  return run.code === 0 ? Number(run.stdout.trim()) : null;
}

/** Whether this clone holds `commit` (a pull made here fetched it). */
export async function hasCommit(repository: HomeRepository, commit: string): Promise<boolean> {
  return (await runGit(repository, ['cat-file', '-e', `${commit}^{commit}`])).code === 0;
}

/** One file of a commit: its path from the work tree's top (forward slashes) and its text. */
export interface FileChange {
  path: string;
  text: string;
}

/**
 * A commit on top of `parent` (a first, parentless commit when null) that sets each of `files`
 * and leaves every other file of the branch (other calendars' states) as it is. It is built in an
 * index file of its own: the checkout's index and work tree stay as they are. The number of git
 * runs does not grow with the number of files.
 */
export async function commitFiles(repository: HomeRepository, change: { parent: string | null; files: readonly FileChange[]; message: string }): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'postsync-commit-'));
  try {
    const index = { GIT_INDEX_FILE: join(folder, 'index') };
    const texts = await Promise.all(change.files.map(async (file, n) => {
      const at = join(folder, `blob-${n}`);
      await writeFile(at, file.text);
      return at;
    }));
    const blobs = (await gitOrThrow(repository, ['hash-object', '-w', '--no-filters', '--stdin-paths'], texts.map((at) => `${at}\n`).join(''))).trim().split('\n');
    await gitOrThrow(repository, change.parent === null ? ['read-tree', '--empty'] : ['read-tree', `${change.parent}^{tree}`], undefined, index);
    const entries = change.files.map((file, n) => `100644 blob ${blobs[n]}\t${file.path}\0`).join('');
    await gitOrThrow(repository, ['update-index', '-z', '--add', '--replace', '--index-info'], entries, index);
    const tree = (await gitOrThrow(repository, ['write-tree'], undefined, index)).trim();
    const run = await runGit(repository, ['commit-tree', tree, ...(change.parent === null ? [] : ['-p', change.parent]), '-m', change.message]);
    if (run.code !== 0) {
      throw new InputError(`git cannot make the state commit: ${run.stderr.trim()}`, { hint: 'Set your name and e-mail for git (git config user.name / user.email), then run it again.' });
    }
    return run.stdout.trim();
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** `commitFiles` of one file. */
export function commitFile(repository: HomeRepository, change: { parent: string | null; path: string; text: string; message: string }): Promise<string> {
  return commitFiles(repository, { parent: change.parent, files: [{ path: change.path, text: change.text }], message: change.message });
}

/** What a push ended with: on the remote, or rejected because another writer created or moved the branch meanwhile. */
export type PushResult = { kind: 'pushed' } | { kind: 'rejected'; reason: string } | { kind: 'refused'; reason: string };

/**
 * A rejection no retry can get past: the remote's rules refuse the update (a protected branch, a
 * ruleset, a hook), whoever pushes what.
 */
const REFUSED_BY_RULE = /protected branch|GH0\d\d|hook declined|permission|denied|forbidden/i;

/**
 * Pushes `commit` to `branch`. Git refuses a push that is not a fast-forward (`[rejected]`), and
 * a remote that is updating the same ref for another push refuses it too (`[remote rejected] …
 * failed to update ref`, `cannot lock ref`, `reference already exists` for a branch two pushes
 * create at once): both are `rejected`, nothing on the remote changed, and fetching, merging and
 * pushing again gets past them. A refusal by the remote's rules is `refused`: no retry gets past it.
 */
export async function pushHome(repository: HomeRepository, commit: string, branch: string): Promise<PushResult> {
  const run = await runGit(repository, ['push', '--quiet', '--no-verify', repository.remote, `${commit}:refs/heads/${branch}`]);
  if (run.code === 0) {
    await gitOrThrow(repository, ['update-ref', localRef(branch), commit]);
    return { kind: 'pushed' };
  }
  const rejection = /^\s*! \[(?:remote )?rejected\].*$/m.exec(run.stderr)?.[0].trim();
  if (rejection !== undefined) return REFUSED_BY_RULE.test(run.stderr) ? { kind: 'refused', reason: run.stderr.trim() } : { kind: 'rejected', reason: rejection };
  throw new StateError(`cannot push the state branch ${branch} to ${repository.remote}: ${run.stderr.trim()}`);
}

/** Whether git's index holds `path` (relative to `repository.cwd`): a commit put it there. */
export async function gitTracks(repository: HomeRepository, path: string): Promise<boolean> {
  return (await runGit(repository, ['ls-files', '--error-unmatch', '--', path])).code === 0;
}

/** Removes `path` from git's index (the file stays on disk); false when git did not track it. */
export async function untrack(repository: HomeRepository, path: string): Promise<boolean> {
  if (!(await gitTracks(repository, path))) return false;
  await gitOrThrow(repository, ['rm', '--cached', '--quiet', '--', path]);
  return true;
}
