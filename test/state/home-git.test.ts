import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { InputError, StateError } from '../../src/errors.js';
import { commitFile, commitFiles, defaultBranch, fetchHome, fileAt, fileSize, gitTracks, hasCommit, pushHome, untrack, workTreeTop, type HomeRepository } from '../../src/state/home-git.js';
import { git, gitEnv } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';

const BRANCH = 'postsync-state';

// home-git runs git with process.env: give it the tests' hermetic config and identity.
beforeEach(() => {
  for (const [name, value] of Object.entries(gitEnv())) {
    if (name.startsWith('GIT_')) vi.stubEnv(name, value!);
  }
});

/** A bare `origin` and a clone of it with one commit on main; `repository` points at the clone. */
async function cloneWithOrigin(remote = 'origin'): Promise<{ origin: string; clone: string; repository: HomeRepository }> {
  const origin = await testdir();
  await git(origin, 'init', '--quiet', '--bare', '-b', 'main');
  const clone = await testdir({ 'README.md': 'hello\n' });
  await git(clone, 'init', '--quiet', '-b', 'main');
  await git(clone, 'remote', 'add', remote, origin);
  await git(clone, 'add', 'README.md');
  await git(clone, 'commit', '--quiet', '-m', 'first');
  await git(clone, 'push', '--quiet', remote, 'main');
  return { origin, clone, repository: { cwd: clone, remote } };
}

/** Every path of `commit`'s tree with its blob text, sorted. */
async function filesOf(cwd: string, commit: string): Promise<Record<string, string>> {
  const paths = (await git(cwd, 'ls-tree', '-r', '--name-only', '--full-tree', commit)).split('\n').filter(Boolean);
  const files: Record<string, string> = {};
  for (const path of paths) files[path] = await git(cwd, 'cat-file', 'blob', `${commit}:${path}`);
  return files;
}

async function parentsOf(cwd: string, commit: string): Promise<string[]> {
  return (await git(cwd, 'rev-list', '--parents', '-n', '1', commit)).split(' ').slice(1);
}

describe('workTreeTop', () => {
  it('is the top folder of the work tree, from a nested folder too', async () => {
    const { clone } = await cloneWithOrigin();
    await mkdir(join(clone, 'cal/deep'), { recursive: true });
    expect(await workTreeTop({ cwd: join(clone, 'cal/deep'), remote: 'origin' })).toBe(clone);
  });

  it('refuses a folder outside any work tree with an InputError naming it', async () => {
    const outside = await testdir();
    vi.stubEnv('GIT_CEILING_DIRECTORIES', outside.replace(/\/[^/]+$/, ''));
    const error = await workTreeTop({ cwd: outside, remote: 'origin' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(`${outside} is not in a git work tree, so its state branch cannot be read or written`);
    expect((error as InputError).hint).toBe('Run postsync state pull, push and show in a clone of the repository (the remote `origin` holds the state branch).');
  });

  it('says git cannot run when the folder does not exist', async () => {
    const missing = join(await testdir(), 'gone');
    const error = await workTreeTop({ cwd: missing, remote: 'origin' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(/^cannot run git: .*ENOENT/);
    expect((error as InputError).hint).toBe('postsync state pull, push and show run git: install it and run them in a clone of the repository.');
  });
});

describe('defaultBranch', () => {
  it("is the remote's HEAD that a clone records, whatever branch is checked out", async () => {
    const { origin } = await cloneWithOrigin();
    await git(origin, 'symbolic-ref', 'HEAD', 'refs/heads/trunk');
    await git(origin, 'branch', 'trunk', 'main');
    for (const remote of ['origin', 'upstream']) {
      const cloned = await testdir();
      await git(cloned, 'clone', '--quiet', '--origin', remote, origin, '.');
      await git(cloned, 'checkout', '--quiet', '-b', 'feature');
      expect(await defaultBranch({ cwd: cloned, remote })).toEqual({ branch: 'trunk', from: `${remote}/HEAD` });
    }
  });

  it('is the branch checked out when the clone knows no remote HEAD (a new repository), null on a detached HEAD', async () => {
    const { clone, repository } = await cloneWithOrigin();
    await git(clone, 'checkout', '--quiet', '-b', 'first');
    expect(await defaultBranch(repository)).toEqual({ branch: 'first', from: 'the branch checked out' });
    await git(clone, 'checkout', '--quiet', '--detach');
    expect(await defaultBranch(repository)).toBeNull();
  });

  it('is null outside a git repository', async () => {
    const outside = await testdir();
    vi.stubEnv('GIT_CEILING_DIRECTORIES', outside.replace(/\/[^/]+$/, ''));
    expect(await defaultBranch({ cwd: outside, remote: 'origin' })).toBeNull();
  });
});

describe('fetchHome and fileAt', () => {
  it('is null when the remote has no state branch yet', async () => {
    const { repository } = await cloneWithOrigin();
    expect(await fetchHome(repository, BRANCH)).toBeNull();
  });

  it('fails with a StateError naming branch and remote when the remote cannot be read', async () => {
    const { clone } = await cloneWithOrigin();
    const error = await fetchHome({ cwd: clone, remote: 'nowhere' }, BRANCH).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateError);
    expect((error as StateError).message).toMatch(/^cannot fetch the state branch postsync-state from nowhere: fatal: 'nowhere' does not appear to be a git repository/);
    expect((error as StateError).message).not.toMatch(/\n$/);
  });

  it('returns the pushed tip, reads its file, and null for an absent file or commit', async () => {
    const { clone, repository } = await cloneWithOrigin();
    const commit = await commitFile(repository, { parent: null, path: 'cal/state.json', text: '{"a":1}\n', message: 'state' });
    expect(await pushHome(repository, commit, BRANCH)).toEqual({ kind: 'pushed' });

    const tip = await fetchHome(repository, BRANCH);
    expect(tip).toBe(commit);
    expect(await git(clone, 'rev-parse', 'refs/postsync/home/postsync-state')).toBe(commit);
    expect(await fileAt(repository, commit, 'cal/state.json')).toBe('{"a":1}\n');
    expect(await fileAt(repository, commit, 'cal/other.json')).toBeNull();
    expect(await fileAt(repository, 'f'.repeat(40), 'cal/state.json')).toBeNull();
  });

  it('fetches the tip alone (depth 1) into a fresh clone', async () => {
    const { origin, repository } = await cloneWithOrigin();
    const first = await commitFile(repository, { parent: null, path: 'state.json', text: 'one', message: 'one' });
    await pushHome(repository, first, BRANCH);
    const second = await commitFile(repository, { parent: first, path: 'state.json', text: 'two', message: 'two' });
    await pushHome(repository, second, BRANCH);

    // A tag on the tip would be followed by a fetch that takes tags.
    await git(origin, 'tag', 'v1', second);
    const fresh = await testdir();
    await git(fresh, 'init', '--quiet', '-b', 'main');
    await git(fresh, 'remote', 'add', 'upstream', origin);
    const freshRepository = { cwd: fresh, remote: 'upstream' };
    expect(await fetchHome(freshRepository, BRANCH)).toBe(second);
    expect(await hasCommit(freshRepository, second)).toBe(true);
    expect(await hasCommit(freshRepository, first)).toBe(false);
    expect(await git(fresh, 'tag', '--list')).toBe('');
    expect(await git(fresh, 'rev-parse', 'refs/postsync/home/postsync-state')).toBe(second);
  });
});

describe('fetchHome after the branch was rewritten', () => {
  it('replaces the local copy of the branch even when the new tip does not descend from it', async () => {
    const { origin, clone, repository } = await cloneWithOrigin();
    const old = await commitFile(repository, { parent: null, path: 'state.json', text: 'old', message: 'm' });
    await pushHome(repository, old, BRANCH);
    expect(await fetchHome(repository, BRANCH)).toBe(old);
    const rewritten = await commitFile(repository, { parent: null, path: 'state.json', text: 'new', message: 'm' });
    await git(clone, 'push', '--quiet', '--force', 'origin', `${rewritten}:refs/heads/${BRANCH}`);
    expect(await git(origin, 'rev-parse', `refs/heads/${BRANCH}`)).toBe(rewritten);
    expect(await fetchHome(repository, BRANCH)).toBe(rewritten);
  });
});

describe('fileSize', () => {
  it('is the exact byte count of the file at the commit, null without one', async () => {
    const { repository } = await cloneWithOrigin();
    const text = 'é'.repeat(1000) + '\n';
    const commit = await commitFile(repository, { parent: null, path: 'a/b/state.json', text, message: 'm' });
    expect(await fileSize(repository, commit, 'a/b/state.json')).toBe(2001);
    expect(await fileSize(repository, commit, 'a/b/none.json')).toBeNull();
    expect(await fileSize(repository, 'f'.repeat(40), 'a/b/state.json')).toBeNull();
  });
});

describe('hasCommit', () => {
  it('is true for a commit of this clone, false for a tree, a blob or an unknown id', async () => {
    const { clone, repository } = await cloneWithOrigin();
    const head = await git(clone, 'rev-parse', 'HEAD');
    expect(await hasCommit(repository, head)).toBe(true);
    expect(await hasCommit(repository, await git(clone, 'rev-parse', 'HEAD^{tree}'))).toBe(false);
    expect(await hasCommit(repository, 'f'.repeat(40))).toBe(false);
  });
});

describe('commitFile', () => {
  it('makes a parentless first commit holding only that file, with the message', async () => {
    const { clone, repository } = await cloneWithOrigin();
    const commit = await commitFile(repository, { parent: null, path: 'calendars/news/.postsync/state.json', text: 'S1\n', message: 'postsync: state of news' });
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await parentsOf(clone, commit)).toEqual([]);
    expect(await filesOf(clone, commit)).toEqual({ 'calendars/news/.postsync/state.json': 'S1' });
    expect(await git(clone, 'log', '-1', '--format=%B', commit)).toBe('postsync: state of news');
    expect(await git(clone, 'ls-tree', '--full-tree', commit)).toMatch(/^040000 tree [0-9a-f]{40}\tcalendars$/);
    // The checkout is untouched: no index entry, HEAD unmoved, nothing written to the work tree.
    expect(await git(clone, 'status', '--porcelain')).toBe('');
  });

  it('changes only its own path and keeps every other calendar, with the parent as parent', async () => {
    const { clone, repository } = await cloneWithOrigin();
    const first = await commitFile(repository, { parent: null, path: 'a/.postsync/state.json', text: 'A1', message: 'm' });
    const second = await commitFile(repository, { parent: first, path: 'b/.postsync/state.json', text: 'B1', message: 'm' });
    const third = await commitFile(repository, { parent: second, path: 'top.json', text: 'T1', message: 'm' });
    // Run from a nested folder: the tree is still the whole branch's.
    const nested = { cwd: join(clone, 'a'), remote: 'origin' };
    await mkdir(join(clone, 'a'), { recursive: true });
    const fourth = await commitFile(nested, { parent: third, path: 'a/.postsync/state.json', text: 'A2', message: 'm' });
    const fifth = await commitFile(repository, { parent: fourth, path: 'a/.postsync/other.json', text: 'O1', message: 'm' });

    expect(await parentsOf(clone, second)).toEqual([first]);
    expect(await parentsOf(clone, fourth)).toEqual([third]);
    expect(await filesOf(clone, fourth)).toEqual({ 'a/.postsync/state.json': 'A2', 'b/.postsync/state.json': 'B1', 'top.json': 'T1' });
    expect(await filesOf(clone, fifth)).toEqual({ 'a/.postsync/other.json': 'O1', 'a/.postsync/state.json': 'A2', 'b/.postsync/state.json': 'B1', 'top.json': 'T1' });
    // The untouched calendar's tree is the very same object.
    expect(await git(clone, 'rev-parse', `${fifth}:b`)).toBe(await git(clone, 'rev-parse', `${second}:b`));
    expect(await git(clone, 'ls-tree', `${fifth}:a/.postsync`)).toMatch(/^100644 blob [0-9a-f]{40}\tother.json\n100644 blob [0-9a-f]{40}\tstate.json$/);
  });

  it('replaces a file that stood where a folder is needed, and a folder where a file goes', async () => {
    const { clone, repository } = await cloneWithOrigin();
    const first = await commitFile(repository, { parent: null, path: 'a', text: 'file', message: 'm' });
    const second = await commitFile(repository, { parent: first, path: 'a/state.json', text: 'S', message: 'm' });
    expect(await filesOf(clone, second)).toEqual({ 'a/state.json': 'S' });
    const third = await commitFile(repository, { parent: second, path: 'a', text: 'file again', message: 'm' });
    expect(await filesOf(clone, third)).toEqual({ a: 'file again' });
  });

  it('keeps a file whose name only ends like the changed one', async () => {
    const { clone, repository } = await cloneWithOrigin();
    const first = await commitFile(repository, { parent: null, path: 'xstate.json', text: 'X', message: 'm' });
    const second = await commitFile(repository, { parent: first, path: 'state.json', text: 'S', message: 'm' });
    expect(await filesOf(clone, second)).toEqual({ 'state.json': 'S', 'xstate.json': 'X' });
  });

  it('sets several files in one commit, each with its own text, and leaves no temporary file behind', async () => {
    const { clone, repository } = await cloneWithOrigin();
    const temporary = await testdir();
    const first = await commitFile(repository, { parent: null, path: 'keep.json', text: 'K', message: 'm' });
    vi.stubEnv('TMPDIR', temporary);
    const commit = await commitFiles(repository, { parent: first, files: [{ path: 'a/state.json', text: 'A\n' }, { path: 'b/state.json', text: 'B\n' }, { path: 'keep.json', text: 'K2' }], message: 'several' }).finally(() => vi.unstubAllEnvs());
    expect(await filesOf(clone, commit)).toEqual({ 'a/state.json': 'A', 'b/state.json': 'B', 'keep.json': 'K2' });
    expect(await parentsOf(clone, commit)).toEqual([first]);
    expect(await readdir(temporary)).toEqual([]);
  });

  it('refuses with an InputError and a hint when git has no identity', async () => {
    const { repository } = await cloneWithOrigin();
    vi.stubEnv('GIT_AUTHOR_NAME', '');
    vi.stubEnv('GIT_COMMITTER_NAME', '');
    const error = await commitFile(repository, { parent: null, path: 'state.json', text: 'S', message: 'm' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(/^git cannot make the state commit: .*empty ident name/s);
    expect((error as InputError).message).not.toMatch(/\n$/);
    expect((error as InputError).hint).toBe('Set your name and e-mail for git (git config user.name / user.email), then run it again.');
  });

  it('fails with a StateError naming the git command when the parent is not a commit here', async () => {
    const { repository } = await cloneWithOrigin();
    const error = await commitFile(repository, { parent: 'f'.repeat(40), path: 'state.json', text: 'S', message: 'm' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateError);
    expect((error as StateError).message).toMatch(/^git read-tree failed: fatal: /);
    expect((error as StateError).message).not.toMatch(/\n$/);
  });
});

describe('pushHome', () => {
  it('pushes an orphan first commit, then its child, and records the local ref', async () => {
    const { origin, clone, repository } = await cloneWithOrigin();
    const first = await commitFile(repository, { parent: null, path: 'state.json', text: '1', message: 'm' });
    expect(await pushHome(repository, first, BRANCH)).toEqual({ kind: 'pushed' });
    expect(await git(origin, 'rev-parse', `refs/heads/${BRANCH}`)).toBe(first);
    expect(await git(clone, 'rev-parse', `refs/postsync/home/${BRANCH}`)).toBe(first);
    const second = await commitFile(repository, { parent: first, path: 'state.json', text: '2', message: 'm' });
    expect(await pushHome(repository, second, BRANCH)).toEqual({ kind: 'pushed' });
    expect(await git(origin, 'rev-parse', `refs/heads/${BRANCH}`)).toBe(second);
    expect(await git(clone, 'rev-parse', `refs/postsync/home/${BRANCH}`)).toBe(second);
    // main is untouched.
    expect(await git(origin, 'rev-parse', 'refs/heads/main')).toBe(await git(clone, 'rev-parse', 'main'));
  });

  it('is rejected, and changes nothing, when the branch moved past the parent', async () => {
    const { origin, clone, repository } = await cloneWithOrigin();
    const base = await commitFile(repository, { parent: null, path: 'state.json', text: 'base', message: 'm' });
    await pushHome(repository, base, BRANCH);
    const theirs = await commitFile(repository, { parent: base, path: 'state.json', text: 'theirs', message: 'm' });
    await pushHome(repository, theirs, BRANCH);
    const mine = await commitFile(repository, { parent: base, path: 'state.json', text: 'mine', message: 'm' });
    const rejected = await pushHome(repository, mine, BRANCH);
    expect(rejected).toEqual({ kind: 'rejected', reason: expect.stringMatching(/^! \[rejected\] +[0-9a-f]+ -> postsync-state \((?:non-fast-forward|fetch first)\)$/) });
    expect(await git(origin, 'rev-parse', `refs/heads/${BRANCH}`)).toBe(theirs);
    expect(await git(clone, 'rev-parse', `refs/postsync/home/${BRANCH}`)).toBe(theirs);
    // A second orphan commit is not a fast-forward either.
    const orphan = await commitFile(repository, { parent: null, path: 'state.json', text: 'orphan', message: 'm' });
    expect(await pushHome(repository, orphan, BRANCH)).toEqual({ kind: 'rejected', reason: expect.stringMatching(/^! \[rejected\]/) });
  });

  it('is refused, with the remote\'s words, when its rules refuse the update (a hook, a protected branch): no retry gets past that', async () => {
    const { origin, repository } = await cloneWithOrigin();
    await writeFile(join(origin, 'hooks/pre-receive'), '#!/bin/sh\necho "error: GH006: Protected branch update failed" >&2\nexit 1\n', { mode: 0o755 });
    const commit = await commitFile(repository, { parent: null, path: 'state.json', text: '1', message: 'm' });
    expect(await pushHome(repository, commit, BRANCH)).toEqual({ kind: 'refused', reason: expect.stringMatching(/^remote: error: GH006: Protected branch update failed.*\[remote rejected\].*pre-receive hook declined\).*failed to push some refs to '[^']*'$/s) });
    expect(await git(origin, 'for-each-ref', '--format=%(refname)', 'refs/heads')).toBe('refs/heads/main');
  });

  it('fails with a StateError naming branch and remote when the push cannot reach it', async () => {
    const { clone, repository } = await cloneWithOrigin();
    const commit = await commitFile(repository, { parent: null, path: 'state.json', text: '1', message: 'm' });
    const error = await pushHome({ cwd: clone, remote: 'nowhere' }, commit, BRANCH).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateError);
    expect((error as StateError).message).toMatch(/^cannot push the state branch postsync-state to nowhere: fatal: 'nowhere' does not appear to be a git repository/);
    expect((error as StateError).message).not.toMatch(/\n$/);
  });

  it('pushes past a pre-push hook that would refuse it (the state push is not a code push)', async () => {
    const { origin, clone, repository } = await cloneWithOrigin();
    await writeFile(join(clone, '.git/hooks/pre-push'), '#!/bin/sh\necho hook refused >&2\nexit 1\n', { mode: 0o755 });
    const commit = await commitFile(repository, { parent: null, path: 'state.json', text: '1', message: 'm' });
    expect(await pushHome(repository, commit, BRANCH)).toEqual({ kind: 'pushed' });
    expect(await git(origin, 'rev-parse', `refs/heads/${BRANCH}`)).toBe(commit);
  });

  it('uses the named remote', async () => {
    const { origin, repository } = await cloneWithOrigin('upstream');
    const commit = await commitFile(repository, { parent: null, path: 'state.json', text: '1', message: 'm' });
    expect(await pushHome(repository, commit, BRANCH)).toEqual({ kind: 'pushed' });
    expect(await git(origin, 'rev-parse', `refs/heads/${BRANCH}`)).toBe(commit);
    expect(await fetchHome(repository, BRANCH)).toBe(commit);
  });
});

describe('gitTracks and untrack', () => {
  it('tells a tracked file from an untracked one, relative to cwd, and untracks it keeping the file', async () => {
    const { clone } = await cloneWithOrigin();
    await mkdir(join(clone, 'cal/.postsync'), { recursive: true });
    await writeFile(join(clone, 'cal/.postsync/state.json'), '{}');
    await writeFile(join(clone, 'cal/loose.json'), '{}');
    await git(clone, 'add', 'cal/.postsync/state.json');
    await git(clone, 'commit', '--quiet', '-m', 'state');
    const calendar = { cwd: join(clone, 'cal'), remote: 'origin' };

    expect(await gitTracks(calendar, '.postsync/state.json')).toBe(true);
    expect(await gitTracks(calendar, 'loose.json')).toBe(false);
    expect(await gitTracks(calendar, 'missing.json')).toBe(false);
    expect(await untrack(calendar, 'loose.json')).toBe(false);

    expect(await untrack(calendar, '.postsync/state.json')).toBe(true);
    expect(await gitTracks(calendar, '.postsync/state.json')).toBe(false);
    expect(await git(clone, 'status', '--porcelain', '--untracked-files=all')).toBe('D  cal/.postsync/state.json\n?? cal/.postsync/state.json\n?? cal/loose.json'.trim());
  });
});
