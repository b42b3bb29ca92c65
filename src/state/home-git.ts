import { spawn } from 'node:child_process';
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

function runGit(repository: HomeRepository, args: readonly string[], input?: string): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    // No terminal prompt: a missing credential fails at once with git's own message.
    const child = spawn('git', args, { cwd: repository.cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], timeout: GIT_TIMEOUT_MS });
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

async function gitOrThrow(repository: HomeRepository, args: readonly string[], input?: string): Promise<string> {
  const run = await runGit(repository, args, input);
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

/**
 * `tree` (or an empty tree) with the file at `parts` replaced by `blob`, written with mktree:
 * no index and no work tree are touched, so the checkout stays as it is.
 */
async function treeWith(repository: HomeRepository, tree: string | null, parts: readonly string[], blob: string): Promise<string> {
  // --full-tree: from a calendar's folder, ls-tree would list only the entries below that folder.
  const listing = tree === null ? '' : await gitOrThrow(repository, ['ls-tree', '-z', '--full-tree', tree]);
  const entries = listing.split('\0').filter(Boolean);
  const [name, ...rest] = parts as [string, ...string[]];
  const existing = entries.find((entry) => entry.slice(entry.indexOf('\t') + 1) === name);
  const kept = entries.filter((entry) => entry !== existing);
  const subtree = existing !== undefined && existing.split(' ')[1] === 'tree' ? existing.split(/[ \t]/)[2]! : null;
  const entry = rest.length === 0 ? `100644 blob ${blob}\t${name}` : `040000 tree ${await treeWith(repository, subtree, rest, blob)}\t${name}`;
  return (await gitOrThrow(repository, ['mktree', '-z'], [...kept, entry].map((line) => `${line}\0`).join(''))).trim();
}

/**
 * A commit on top of `parent` (a first, parentless commit when null) that sets `path` to `text`
 * and leaves every other file of the branch (other calendars' states) as it is.
 */
export async function commitFile(repository: HomeRepository, change: { parent: string | null; path: string; text: string; message: string }): Promise<string> {
  const blob = (await gitOrThrow(repository, ['hash-object', '-w', '--stdin'], change.text)).trim();
  const base = change.parent === null ? null : `${change.parent}^{tree}`;
  const tree = await treeWith(repository, base, change.path.split('/'), blob);
  const run = await runGit(repository, ['commit-tree', tree, ...(change.parent === null ? [] : ['-p', change.parent]), '-m', change.message]);
  if (run.code !== 0) {
    throw new InputError(`git cannot make the state commit: ${run.stderr.trim()}`, { hint: 'Set your name and e-mail for git (git config user.name / user.email), then run it again.' });
  }
  return run.stdout.trim();
}

/**
 * Pushes `commit` to `branch`. Git itself refuses when the branch moved past the commit's parent
 * (not a fast-forward): `moved`, and nothing on the remote changed.
 */
export async function pushHome(repository: HomeRepository, commit: string, branch: string): Promise<'pushed' | 'moved'> {
  const run = await runGit(repository, ['push', '--quiet', '--no-verify', repository.remote, `${commit}:refs/heads/${branch}`]);
  if (run.code === 0) {
    await gitOrThrow(repository, ['update-ref', localRef(branch), commit]);
    return 'pushed';
  }
  if (/\[rejected\]|non-fast-forward|fetch first/i.test(run.stderr)) return 'moved';
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
