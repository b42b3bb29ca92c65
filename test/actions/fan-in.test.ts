import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoFixture } from '../../src/emulator/index.js';
import { initProject } from '../../src/init/init-project.js';
import { ACTION_REF } from '../../src/init/workflow-steps.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { git } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';
import { startGitHttpRemote, type GitHttpRemote } from './git-http-remote.js';
import { homeRef, mergePush, STATE_HOMES, type StateHome } from './state-homes.js';
import { HARNESS_TOKEN, runWorkflow, type StepResult, type WorkflowJobRun } from './workflow-runner.js';

/**
 * A merge that touches many calendars at once, as an agency's bulk change does: the apply
 * workflow runs one job per calendar, all at the same time, against one git remote served over
 * HTTP as GitHub serves it, and every calendar's state must be recorded. The calendars are tiny
 * (one post each) and share one emulator, so the test measures the workflow, not the applies.
 * Every other calendar keeps its state on the state branch, the others on main: one run covers
 * both homes (each apply job costs seconds of CPU; a run of 50 per home would double the file's time).
 */

const NOW = new Date('2026-11-21T12:00:00Z');
const CALENDARS = 50;
const folders = Array.from({ length: CALENDARS }, (_, index) => `clients/c${String(index + 1).padStart(2, '0')}`);
/** c01, c03, …: the file home (committed on main); c02, c04, …: the branch home. */
const homeOf = (folder: string): StateHome => (Number(folder.slice(-2)) % 2 === 1 ? 'file' : 'branch');
const inHome = (home: StateHome) => folders.filter((folder) => homeOf(folder) === home);

interface Repository {
  bare: string;
  editor: string;
  http: GitHttpRemote;
}

/** The remote: main holds the workflows and `folders`' calendars with no post yet. */
async function repository(): Promise<Repository> {
  const bare = await testdir();
  await git(bare, 'init', '-q', '--bare', '--initial-branch=main', '.');
  const editor = await testdir();
  await git(editor, 'clone', '-q', bare, '.');
  // The workflows and the action of a project init wrote; the calendars are made by hand, tiny.
  await initProject({ dir: join(editor, 'template'), now: NOW, timezone: 'UTC' });
  await rename(join(editor, 'template/.github'), join(editor, '.github'));
  await rm(join(editor, 'template'), { recursive: true });
  for (const folder of folders) {
    await mkdir(join(editor, folder, 'posts'), { recursive: true });
    await writeFile(join(editor, folder, 'postsync.yaml'), `timezone: UTC\n${homeOf(folder) === 'branch' ? 'state:\n  home: branch\n' : ''}`);
  }
  await writeFile(join(editor, '.gitattributes'), '.postsync/state.json merge=postsync-state\n');
  await git(editor, 'add', '.');
  await git(editor, 'commit', '-q', '-m', 'Fifty calendars');
  await mergePush(editor, '-q', 'origin', 'HEAD:main');
  return { bare, editor, http: await startGitHttpRemote({ bare, token: HARNESS_TOKEN }) };
}

/** Lands a merge that adds post `n` to each of `touched`; returns it and the commit before it. */
async function merge(repo: Repository, touched: readonly string[], n: number): Promise<{ sha: string; before: string }> {
  await git(repo.editor, 'pull', '-q', '--rebase', 'origin', 'main');
  const before = await git(repo.editor, 'rev-parse', 'HEAD');
  for (const folder of touched) await writeFile(join(repo.editor, folder, `posts/post-${n}.md`), `---\ntargets: []\n---\n${folder}, post ${n}.\n`);
  await git(repo.editor, 'add', '.');
  await git(repo.editor, 'commit', '-q', '-m', `Merge pull request #${n}`);
  await mergePush(repo.editor, '-q', 'origin', 'HEAD:main');
  return { sha: await git(repo.editor, 'rev-parse', 'HEAD'), before };
}

function secrets(emulator: TestEmulator): Record<string, string> {
  return Object.fromEntries(folders.flatMap((folder) => {
    const suffix = `_${folder.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
    return [[`POSTSYNC_API_URL${suffix}`, emulator.baseUrl], [`POSTSYNC_API_KEY${suffix}`, 'demo-key']];
  }));
}

async function applyRun(repo: Repository, emulator: TestEmulator, merged: { sha: string; before: string }, beforeStep?: (name: string) => Promise<void>): Promise<WorkflowJobRun[]> {
  return runWorkflow(join(repo.editor, '.github/workflows/postsync-apply.yml'), {
    workspace: await testdir(),
    remote: repo.http.url,
    actionRef: ACTION_REF,
    secrets: secrets(emulator),
    github: { sha: merged.sha, event: { before: merged.before } },
    matrixAtOnce: true,
    ...(beforeStep ? { beforeStep } : {}),
  });
}

function recordStep(runs: WorkflowJobRun[]): StepResult {
  const record = runs.find((run) => run.job === 'record')?.result;
  if (!record) throw new Error('the record job did not run');
  return record.steps.find((step) => step.name === 'Record the states')!;
}

/** What the record step said, but the workflow commands (the token's mask). */
const said = (step: StepResult) => step.stdout.split('\n').filter((line) => line !== '' && !line.startsWith('::'));

/** Each calendar's state in its home on the remote: its post keys. */
async function recordedPosts(repo: Repository): Promise<Record<string, string[]>> {
  const states: Record<string, string[]> = {};
  for (const folder of folders) {
    const text = await git(repo.bare, 'show', `${homeRef(homeOf(folder))}:${folder}/.postsync/state.json`).catch(() => null);
    const state = text === null ? null : (JSON.parse(text) as { targets: Record<string, { posts: Record<string, unknown> }> });
    states[folder] = state === null ? [] : Object.values(state.targets).flatMap((target) => Object.keys(target.posts)).sort();
  }
  return states;
}

const createdPosts = async (emulator: TestEmulator) => (await emulator.requestLog()).filter((entry) => entry.method === 'POST' && entry.path === '/public/v1/posts' && entry.status === 201).length;

describe(`the apply workflow of a merge touching ${CALENDARS} calendars, every apply job at once, half of them with each state home`, () => {
  it('records every calendar\'s state with one commit per home, and a second merge applied meanwhile is recorded after it, nothing created twice', async () => {
    const emulator = await startTestEmulator({ fixture: demoFixture(), idempotencyTtlSeconds: 0 });
    const repo = await repository();
    try {
      const first = await merge(repo, folders, 1);
      // A second merge lands while the first run records: it touches two of the calendars again, one of each home.
      let second: { sha: string; before: string } | undefined;
      const runs = await applyRun(repo, emulator, first, async (name) => {
        if (name === 'Record the states' && second === undefined) second = await merge(repo, folders.slice(0, 2), 2);
      });
      const applies = runs.filter((run) => run.job === 'apply');
      expect(applies).toHaveLength(CALENDARS);
      expect(applies.filter((run) => run.result?.status !== 'success').map((run) => run.matrix)).toEqual([]);
      const recorded = recordStep(runs);
      expect(recorded.status).toBe('success');
      expect(said(recorded)).toEqual([
        expect.stringMatching(new RegExp(`^Recorded the states of ${inHome('file').length} calendars on main in one commit \\(commit [0-9a-f]{12}\\)\\.$`)),
        expect.stringMatching(new RegExp(`^Recorded the states of ${inHome('branch').length} calendars on postsync/state in one commit \\(a new branch, commit [0-9a-f]{12}\\)\\.$`)),
      ]);
      expect(await recordedPosts(repo)).toEqual(Object.fromEntries(folders.map((folder) => [folder, ['post-1']])));
      for (const home of STATE_HOMES) expect(await git(repo.bare, 'log', '-1', '--format=%an|%s', homeRef(home))).toBe('github-actions[bot]|postsync: record applied posts [skip ci]');
      expect(await git(repo.bare, 'rev-list', '--count', 'postsync/state')).toBe('1');
      // main: one state commit, on top of the second merge, which landed while the states were recorded.
      expect(await git(repo.bare, 'rev-parse', 'main~1')).toBe(second!.sha);

      // GitHub starts the second merge's run once the first one ended (queue: max): it applies
      // from the states the first one recorded, so it creates only the two new posts.
      const next = await applyRun(repo, emulator, second!);
      const nextApplies = next.filter((run) => run.job === 'apply');
      expect(nextApplies.map((run) => (run.matrix?.calendar as { folder: string }).folder)).toEqual(folders.slice(0, 2));
      for (const run of nextApplies) expect(run.result!.steps.find((step) => step.name === 'Apply')!.outputs).toMatchObject({ create: '1', update: '0', adopt: '0' });
      expect(said(recordStep(next))).toEqual([
        expect.stringMatching(/^Recorded the states of 1 calendar on main in one commit \(commit [0-9a-f]{12}\)\.$/),
        expect.stringMatching(/^Recorded the states of 1 calendar on postsync\/state in one commit \(commit [0-9a-f]{12}\)\.$/),
      ]);
      expect(await recordedPosts(repo)).toEqual(Object.fromEntries(folders.map((folder, index) => [folder, index < 2 ? ['post-1', 'post-2'] : ['post-1']])));
      expect(await createdPosts(emulator)).toBe(CALENDARS + 2);
    } finally {
      await repo.http.close();
      await emulator.close();
    }
  }, 600_000);
});
