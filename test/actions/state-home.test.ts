import { appendFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoFixture } from '../../src/emulator/index.js';
import { ACTION_REF } from '../../src/init/workflow-steps.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { git } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';
import { initProject } from '../../src/init/init-project.js';
import { startGitHubStandIn } from './github-issues-stand-in.js';
import { initRepository } from './init-repository.js';
import { homeRef, mergePush, protectMain, remoteState, STATE_HOMES, useHome, type StateHome } from './state-homes.js';
import { runWorkflow, type JobResult, type StepResult, type WorkflowJobRun } from './workflow-runner.js';

/**
 * The state home under branch protection: main takes merges only (a pre-receive hook stands for
 * "require a pull request"), so the apply workflow keeps the state on its own branch, the plan of
 * the next pull request reads it there, and a lost state still adopts instead of duplicating.
 */

const NOW = new Date('2026-11-21T12:00:00Z');

interface Repo {
  remote: string;
  editor: string;
}

async function repository(home: StateHome, options: { protect: boolean }): Promise<Repo> {
  const { remote, editor } = await initRepository({ now: NOW });
  if (options.protect) await protectMain(remote);
  await useHome(editor, home);
  return { remote, editor };
}

/** Merges one new post file `n` into main; returns the merge and the commit before it. */
async function merge(repo: Repo, n: number): Promise<{ sha: string; before: string }> {
  const before = await git(repo.editor, 'rev-parse', 'HEAD');
  await mkdir(join(repo.editor, 'posts/2027-01'), { recursive: true });
  await writeFile(join(repo.editor, `posts/2027-01/post-${n}.md`), `---\ntargets: []\n---\nPost number ${n}.\n`);
  await git(repo.editor, 'add', '.');
  await git(repo.editor, 'commit', '-q', '-m', `Merge pull request #${n}`);
  await mergePush(repo.editor, '-q', 'origin', 'HEAD:main');
  return { sha: await git(repo.editor, 'rev-parse', 'HEAD'), before };
}

function run(repo: Repo, emulator: TestEmulator, workflow: 'apply' | 'plan', github: Record<string, unknown>): Promise<WorkflowJobRun[]> {
  return testdir().then((workspace) =>
    runWorkflow(join(repo.editor, `.github/workflows/postsync-${workflow}.yml`), {
      workspace,
      remote: repo.remote,
      actionRef: ACTION_REF,
      secrets: { POSTSYNC_API_URL: emulator.baseUrl, POSTSYNC_API_KEY: 'demo-key', POSTSYNC_API_READ_KEY: 'demo-key' },
      github,
    }),
  );
}

function job(runs: WorkflowJobRun[], id: string): JobResult {
  const found = runs.find((candidate) => candidate.job === id)?.result;
  if (!found) throw new Error(`the job ${id} did not run`);
  return found;
}

function step(result: JobResult, name: string): StepResult {
  const found = result.steps.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no step ${name}: ${result.steps.map((s) => s.name).join(', ')}`);
  return found;
}

const createdPosts = async (emulator: TestEmulator) => (await emulator.requestLog()).filter((entry) => entry.method === 'POST' && entry.path === '/public/v1/posts' && entry.status === 201).length;

describe('the state home `branch` on a main that rejects pushes', () => {
  // One merge applied, shared by the cases below: each reads what that run left, none changes main
  // or the state branch.
  let emulator: TestEmulator;
  let repo: Repo;
  let merged: { sha: string; before: string };
  let runs: WorkflowJobRun[];
  beforeAll(async () => {
    emulator = await startTestEmulator({ fixture: demoFixture() });
    repo = await repository('branch', { protect: true });
    merged = await merge(repo, 1);
    runs = await run(repo, emulator, 'apply', { sha: merged.sha, event: { before: merged.before } });
  }, 180_000);
  afterAll(() => emulator?.close());

  it('apply records the state on postsync/state and leaves main alone', async () => {
    const apply = job(runs, 'apply');
    expect(apply.steps.map((s) => `${s.name}: ${s.status}`)).toEqual([
      'Check for the key: success',
      'Check out the content: success',
      'Set up Node.js: provided',
      'Set up postsync: success',
      'Read the state: success',
      'Apply: success',
      'Hand on the state: success',
      'Upload the state: success',
      'Check for problems: success',
    ]);
    expect(step(apply, 'Read the state').stdout).toContain('has no branch postsync/state yet');
    // Where the commit step records it: the home, and the file relative to the calendar.
    expect(step(apply, 'Read the state').outputs).toEqual({ home: 'branch', branch: 'postsync/state', file: '.postsync/state.json' });
    expect(step(apply, 'Apply').outputs).toMatchObject({ create: '2', adopt: '0' });
    expect(step(apply, 'Hand on the state').stdout).toBe('Handed on the state of . (.postsync/state.json, to be recorded on postsync/state).\n');
    expect(step(job(runs, 'record'), 'Record the states').stdout).toMatch(/Recorded the states of 1 calendar on postsync\/state in one commit \(a new branch, commit [0-9a-f]{12}\)\./);
    expect(step(apply, 'Check for problems').stdout).toContain('No problems: no managed post is drifted, failed, partly published or blocked.');
    // main is as the merge left it; the state branch holds the state file and nothing else.
    expect(await git(repo.remote, 'rev-parse', 'main')).toBe(merged.sha);
    expect(await git(repo.remote, 'ls-tree', '-r', '--name-only', 'postsync/state')).toBe('.postsync/state.json');
    expect(Object.keys(Object.values((await remoteState(repo.remote, 'branch')).targets)[0]!.posts).sort()).toEqual(['2026-11/welcome', '2027-01/post-1']);
  });

  it('the next pull request plans from it; the next apply changes nothing', async () => {
    // A pull request adds post 2: its plan knows the two posts applied, from the state branch.
    await mkdir(join(repo.editor, 'posts/2027-02'), { recursive: true });
    await writeFile(join(repo.editor, 'posts/2027-02/next.md'), '---\ntargets: []\n---\nThe next one.\n');
    await git(repo.editor, 'add', '.');
    await git(repo.editor, 'commit', '-q', '-m', 'A pull request');
    await git(repo.editor, 'push', '-q', 'origin', 'HEAD:refs/heads/next-post');
    const pr = await run(repo, emulator, 'plan', { sha: await git(repo.editor, 'rev-parse', 'HEAD'), event: { pull_request: { number: 2 } } });
    const plan = job(pr, 'plan');
    expect(step(plan, 'Read the state').stdout).toMatch(/Pulled the state of postsync\/state \([0-9a-f]{12}\) into \.postsync\/state\.json\./);
    expect(step(plan, 'Plan').outputs).toMatchObject({ create: '1', adopt: '0', update: '0', delete: '0' });
    expect(await git(repo.remote, 'rev-list', '--count', 'postsync/state')).toBe('1');

    const againRuns = await run(repo, emulator, 'apply', { sha: merged.sha });
    expect(step(job(againRuns, 'apply'), 'Apply').outputs).toMatchObject({ 'has-changes': 'false', create: '0', update: '0', adopt: '0' });
    expect(step(job(againRuns, 'record'), 'Record the states').stdout).toContain('The states of 1 calendar on postsync/state are already these: nothing to push.');
    expect(await createdPosts(emulator)).toBe(2);
  }, 180_000);

  it('the health workflow checks the calendar against the state on the branch: nothing to change after an apply, no issue', async () => {
    const github = await startGitHubStandIn({ repository: 'acme/content', token: 'ghs_health' });
    try {
      expect(job(runs, 'apply').status).toBe('success');
      const health = job(
        await runWorkflow(join(repo.editor, '.github/workflows/postsync-health.yml'), {
          workspace: await testdir(),
          remote: repo.remote,
          actionRef: ACTION_REF,
          secrets: { POSTSYNC_API_URL: emulator.baseUrl, POSTSYNC_API_READ_KEY: 'demo-key', GITHUB_TOKEN: 'ghs_health' },
          github: { sha: merged.sha, api_url: github.apiUrl, repository: 'acme/content', run_id: '7' },
        }),
        'health',
      );
      expect(step(health, 'Read the state').stdout).toContain('Pulled the state of postsync/state');
      expect(step(health, 'Check').outputs).toMatchObject({ 'plan-exit': '0', 'status-exit': '0', 'has-changes': 'false' });
      expect(step(health, 'Report').stdout).toContain('All is well; no health issue is open.');
    } finally {
      await github.close();
    }
  }, 180_000);
});

describe('the state home `branch` with several calendars in one repository', () => {
  it('keeps each calendar\'s state in its own file on the one branch', async () => {
    const emulator = await startTestEmulator({ fixture: demoFixture() });
    try {
      const remote = await testdir();
      await git(remote, 'init', '-q', '--bare', '--initial-branch=main', '.');
      await protectMain(remote);
      const editor = await testdir();
      await git(editor, 'clone', '-q', remote, '.');
      for (const folder of ['clients/acme', 'clients/bolt']) {
        await initProject({ dir: join(editor, folder), now: NOW, timezone: 'UTC' });
        await appendFile(join(editor, folder, 'postsync.yaml'), '\nstate:\n  home: branch\n');
      }
      // GitHub reads workflows at the repository root only: one calendar's .github moves there.
      await rename(join(editor, 'clients/acme/.github'), join(editor, '.github'));
      await rm(join(editor, 'clients/bolt/.github'), { recursive: true });
      await git(editor, 'add', '.');
      await git(editor, 'commit', '-q', '-m', 'Two calendars');
      await mergePush(editor, '-q', 'origin', 'HEAD:main');
      const secrets = Object.fromEntries(['_CLIENTS_ACME', '_CLIENTS_BOLT'].flatMap((suffix) => [[`POSTSYNC_API_URL${suffix}`, emulator.baseUrl], [`POSTSYNC_API_KEY${suffix}`, 'demo-key'], [`POSTSYNC_API_READ_KEY${suffix}`, 'demo-key']]));
      const runs = await runWorkflow(join(editor, '.github/workflows/postsync-apply.yml'), { workspace: await testdir(), remote, actionRef: ACTION_REF, secrets, github: { sha: await git(editor, 'rev-parse', 'HEAD') } });
      const applies = runs.filter((candidate) => candidate.job === 'apply');
      expect(applies.map((candidate) => candidate.result?.status)).toEqual(['success', 'success']);
      expect((await git(remote, 'ls-tree', '-r', '--name-only', 'postsync/state')).split('\n')).toEqual(['clients/acme/.postsync/state.json', 'clients/bolt/.postsync/state.json']);
      // Both states in one commit, pushed once by the record job.
      expect(await git(remote, 'log', '--format=%s', 'postsync/state')).toBe('postsync: record applied posts [skip ci]');
    } finally {
      await emulator.close();
    }
  }, 180_000);
});

describe('the state home `file` on a main that rejects pushes', () => {
  it('fails the state commit at once with a message that names the branch home', async () => {
    const emulator = await startTestEmulator({ fixture: demoFixture() });
    try {
      const repo = await repository('file', { protect: true });
      const merged = await merge(repo, 1);
      const runs = await run(repo, emulator, 'apply', { sha: merged.sha, event: { before: merged.before } });
      expect(job(runs, 'apply').status).toBe('success');
      const commit = step(job(runs, 'record'), 'Record the states');
      expect(commit.status).toBe('failure');
      expect(commit.commands.filter((line) => line.startsWith('::error'))).toEqual([expect.stringMatching(/^::error title=postsync::main refuses the state commit \(a protected branch\?\).*postsync state move-home --to branch.*state: \{ home: branch \}/)]);
      expect(await git(repo.remote, 'rev-parse', 'main')).toBe(merged.sha);
    } finally {
      await emulator.close();
    }
  }, 180_000);
});

describe.each(STATE_HOMES)('a lost state with the state home %s', (home) => {
  it('adopts the posts it finds instead of creating them again', async () => {
    const emulator = await startTestEmulator({ fixture: demoFixture(), idempotencyTtlSeconds: 0 });
    try {
      const repo = await repository(home, { protect: home === 'branch' });
      const first = await merge(repo, 1);
      expect(job(await run(repo, emulator, 'apply', { sha: first.sha, event: { before: first.before } }), 'apply').status).toBe('success');
      // The state is lost: the branch deleted, or the file removed on main.
      await git(repo.editor, 'pull', '-q', '--rebase', 'origin', 'main');
      if (home === 'branch') await git(repo.editor, 'push', '-q', 'origin', '--delete', 'postsync/state');
      else {
        await git(repo.editor, 'rm', '-q', '.postsync/state.json');
        await git(repo.editor, 'commit', '-q', '-m', 'Lose the state');
        await mergePush(repo.editor, '-q', 'origin', 'HEAD:main');
      }
      const second = await merge(repo, 2);
      const apply = job(await run(repo, emulator, 'apply', { sha: second.sha, event: { before: second.before } }), 'apply');
      expect(apply.status).toBe('success');
      expect(step(apply, 'Apply').outputs).toMatchObject({ create: '1', adopt: '2' });
      expect(await createdPosts(emulator)).toBe(3);
      const posts = Object.values((await remoteState(repo.remote, home)).targets)[0]!.posts;
      expect(Object.keys(posts).sort()).toEqual(['2026-11/welcome', '2027-01/post-1', '2027-01/post-2']);
      expect(await git(repo.remote, 'log', '-1', '--format=%s', homeRef(home))).toBe('postsync: record applied posts [skip ci]');
    } finally {
      await emulator.close();
    }
  }, 180_000);
});
