import { spawn } from 'node:child_process';
import { existsSync, lstatSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { git, gitEnv } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';

/**
 * Attacks on the state branch (`state: { home: branch }`) by whoever can push to it: what `state
 * pull` and `state show` read from there is refused clearly or printed safely, and never written
 * outside the project.
 */

const WORKING_STATE = '{"version":1,"targets":{}}\n';

/** A bare remote whose main holds a calendar with its state on a branch, and a clone of it with a working state file. */
async function repository(): Promise<{ remote: string; clone: string }> {
  const remote = await testdir();
  await git(remote, 'init', '-q', '--bare', '--initial-branch=main', '.');
  const clone = await testdir();
  await git(clone, 'clone', '-q', remote, '.');
  await mkdir(join(clone, 'posts'), { recursive: true });
  await writeFile(join(clone, 'postsync.yaml'), 'timezone: UTC\nstate:\n  home: branch\n');
  await git(clone, 'add', '.');
  await git(clone, 'commit', '-q', '-m', 'Start');
  await git(clone, 'push', '-q', 'origin', 'HEAD:main');
  await mkdir(join(clone, '.postsync'));
  await writeFile(join(clone, '.postsync/state.json'), WORKING_STATE);
  return { remote, clone };
}

/** Pushes to postsync/state a commit whose `.postsync/state.json` is `entry`: a file holding `text`, or a symlink to it. */
async function pushStateBranch(clone: string, entry: { mode: '100644' | '120000'; text: string }): Promise<void> {
  const file = join(await testdir(), 'entry');
  await writeFile(file, entry.text);
  const blob = await git(clone, 'hash-object', '-w', file);
  const inner = (await runGit(clone, ['mktree'], `${entry.mode} blob ${blob}\tstate.json\n`)).trim();
  const top = (await runGit(clone, ['mktree'], `040000 tree ${inner}\t.postsync\n`)).trim();
  const commit = await git(clone, 'commit-tree', top, '-m', 'hostile state');
  await git(clone, 'push', '-q', '-f', 'origin', `${commit}:refs/heads/postsync/state`);
}

/** git with `input` on its standard input (mktree reads its entries there). */
function runGit(cwd: string, args: string[], input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: gitEnv() });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`git ${args.join(' ')}: exit ${code}`))));
    child.stdin.end(input);
  });
}

const postsync = (cwd: string, ...args: string[]) => runCli(args, { cwd, env: { ...gitEnv(), POSTSYNC_API_URL: undefined } });

/** A clone pushed the state branch; another clone (`other`) with a working state of its own never pulled it. */
async function pushedThenCloned(): Promise<{ remote: string; tip: string; other: string }> {
  const { remote, clone } = await repository();
  expect((await postsync(clone, 'state', 'push')).code).toBe(0);
  const tip = await git(remote, 'rev-parse', 'postsync/state');
  const other = await testdir();
  await git(other, 'clone', '-q', remote, '.');
  await mkdir(join(other, '.postsync'));
  await writeFile(join(other, '.postsync/state.json'), '{"version":1,"targets":{"https://api.example.com/public/v1#demo":{"apiUrl":"https://api.example.com/public/v1","projectId":"demo","posts":{},"media":{},"pending":{},"uploads":{}}}}\n');
  return { remote, tip, other };
}

/** Runs `state pull` and `state show`, expects both to fail with the working file as it was; their stderr. */
async function refusedByPullAndShow(clone: string): Promise<string[]> {
  const stderrs: string[] = [];
  for (const command of [['state', 'pull'], ['state', 'show']]) {
    const run = await postsync(clone, ...command);
    expect(run.code, command.join(' ')).toBe(1);
    stderrs.push(run.stderr);
  }
  expect(await readFile(join(clone, '.postsync/state.json'), 'utf8')).toBe(WORKING_STATE);
  return stderrs;
}

describe('attack: a hostile state branch', () => {
  it('refuses, naming its size, a state file on the branch too large to be a state, and leaves the working file as it was', async () => {
    const { clone } = await repository();
    // Valid JSON, padded: a few kilobytes in the repository, a string too long for Node.js at some hundreds of MiB.
    await pushStateBranch(clone, { mode: '100644', text: `{"version":1,"targets":{}}${' '.repeat(65 * 1024 * 1024)}` });
    for (const stderr of await refusedByPullAndShow(clone)) {
      expect(stderr).toContain('the state file .postsync/state.json on postsync/state is 65.0 MiB: more than a state file can hold (at most 64 MiB)');
    }
  }, 120_000);

  it('reads a symlink on the branch as its text, never the file it names (held)', async () => {
    const { clone } = await repository();
    await pushStateBranch(clone, { mode: '120000', text: '/etc/passwd' });
    const pull = await postsync(clone, 'state', 'pull');
    expect(pull.code).toBe(1);
    expect(pull.stderr).toContain('is not valid JSON');
    expect(pull.stderr).not.toContain('root:');
    expect(await readFile(join(clone, '.postsync/state.json'), 'utf8')).toBe(WORKING_STATE);
  }, 60_000);

  it('never writes a pulled state through a .postsync that links outside the project (held)', async () => {
    const { clone } = await repository();
    await pushStateBranch(clone, { mode: '100644', text: WORKING_STATE });
    const outside = await testdir();
    await rm(join(clone, '.postsync'), { recursive: true });
    await symlink(outside, join(clone, '.postsync'));
    const pull = await postsync(clone, 'state', 'pull');
    expect(pull.code).toBe(1);
    expect(pull.stderr).toContain('it is a symbolic link');
    expect(existsSync(join(outside, 'state.json'))).toBe(false);
    expect(lstatSync(join(clone, '.postsync')).isSymbolicLink()).toBe(true);
  }, 60_000);

  it('prints a target id and keys with terminal controls from the branch as visible escapes (held)', async () => {
    const { clone } = await repository();
    const target = 'https://api.example.com/public/v1#demo\u009b31m\u001b]0;x\u0007\u202e';
    await pushStateBranch(clone, { mode: '100644', text: JSON.stringify({ version: 1, targets: { [target]: { apiUrl: 'https://api.example.com/public/v1', projectId: 'demo', posts: {}, media: {}, pending: {}, uploads: {} } } }) });
    const shown = await postsync(clone, 'state', 'show');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('#demo\\x9b31m\\x1b]0;x\\x07\\u202e: 0 posts');
    expect(shown.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  }, 60_000);

  it('pushes the state at its path on the branch when the project is named by a symlinked path (-C), never a `..` entry', async () => {
    const { remote, clone } = await repository();
    const link = join(await testdir(), 'linked-clone');
    await symlink(clone, link);
    const pushed = await runCli(['-C', link, 'state', 'push'], { cwd: await testdir(), env: { ...gitEnv(), POSTSYNC_API_URL: undefined } });
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(await git(remote, 'ls-tree', '-r', '--name-only', 'postsync/state')).toBe('.postsync/state.json');
  }, 60_000);

  it('refuses a state branch name that git or a shell step would read as more than a name, before running git (held)', async () => {
    const { clone } = await repository();
    for (const branch of ['-x', '--upload-pack=touch pwned', 'a b', '$(touch pwned)', '`touch pwned`', 'a\nb', 'x..y', '@{-1}', 'a;b', 'x.lock', 'x/']) {
      await writeFile(join(clone, 'postsync.yaml'), `timezone: UTC\nstate:\n  home: branch\n  branch: ${JSON.stringify(branch)}\n`);
      const pull = await postsync(clone, 'state', 'pull');
      expect(pull.code, branch).not.toBe(0);
      expect(pull.stderr, branch).toContain('`state.branch` is not a branch name postsync can use');
    }
    expect(existsSync(join(clone, 'pwned'))).toBe(false);
  }, 60_000);

  it('refuses a state on the branch that is not a state with a way out that works, not a git command for the working file', async () => {
    const { clone } = await repository();
    await pushStateBranch(clone, { mode: '100644', text: '{"version":1,"targets":' });
    for (const stderr of await refusedByPullAndShow(clone)) {
      expect(stderr).toContain('the state file .postsync/state.json on postsync/state is not valid JSON');
      expect(stderr).not.toContain('git checkout --');
      expect(stderr).toContain('Restore the branch to the last commit postsync pushed (git log origin/postsync/state)');
    }
  }, 60_000);

  it('does not take a pull record that links elsewhere as this clone\'s: a push over a branch it never pulled is refused, the branch unchanged', async () => {
    const { remote, tip, other } = await pushedThenCloned();
    // A record of a pull this clone never made, reached through a link (a file outside the project).
    const record = join(await testdir(), 'record.json');
    await writeFile(record, JSON.stringify({ branch: 'postsync/state', commit: tip }));
    await symlink(record, join(other, '.postsync/state-home.json'));
    const push = await postsync(other, 'state', 'push');
    expect(push.code).toBe(1);
    expect(push.stderr).toContain('this clone never pulled it');
    expect(await git(remote, 'rev-parse', 'postsync/state')).toBe(tip);
  }, 60_000);

  it('does not believe a pull record git tracks (a commit put it there) nor one whose commit is not a commit id, and refuses a --remote that git would read as an option', async () => {
    const { remote, tip, other } = await pushedThenCloned();
    // A record of a pull another clone made, committed (as a pull request could).
    await writeFile(join(other, '.postsync/state-home.json'), JSON.stringify({ branch: 'postsync/state', commit: tip }));
    await git(other, 'add', '-f', '.postsync/state-home.json');
    await git(other, 'commit', '-q', '-m', 'a pull record');
    const tracked = await postsync(other, 'state', 'push');
    expect(tracked.code).toBe(1);
    expect(tracked.stderr).toContain('this clone never pulled it');
    expect(tracked.stderr).toContain('git tracks .postsync/state-home.json');
    expect(await git(remote, 'rev-parse', 'postsync/state')).toBe(tip);

    await git(other, 'rm', '-q', '--cached', '.postsync/state-home.json');
    await writeFile(join(other, '.postsync/state-home.json'), JSON.stringify({ branch: 'postsync/state', commit: 'HEAD' }));
    const named = await postsync(other, 'state', 'push');
    expect(named.code).toBe(1);
    expect(named.stderr).toContain('this clone never pulled it');
    await writeFile(join(other, '.postsync/state-home.json'), JSON.stringify({ branch: 'postsync/state', commit: '--output=pwned' }));
    const notHex = await postsync(other, 'state', 'push', '--merge');
    expect(notHex.stderr).not.toContain('--output');
    expect(existsSync(join(other, 'pwned'))).toBe(false);

    for (const verb of ['pull', 'push']) {
      const option = await postsync(other, 'state', verb, '--remote=--upload-pack=touch pwned');
      expect(option.code, verb).toBe(1);
      expect(option.stderr, verb).toContain('a remote name cannot start with -');
      expect(existsSync(join(other, 'pwned')), verb).toBe(false);
    }
  }, 60_000);
});
