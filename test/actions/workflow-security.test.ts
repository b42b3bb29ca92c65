import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { initProject } from '../../src/init/init-project.js';
import { ACTION_REF } from '../../src/init/workflow-steps.js';
import { useEmulator } from '../helpers/emulator.js';
import { git, gitEnv } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';
import { interpolate } from './expressions.js';
import { startGitHttpRemote } from './git-http-remote.js';
import { initRepository } from './init-repository.js';
import { HARNESS_TOKEN, REPO_ROOT, runWorkflow, type WorkflowJobRun } from './workflow-runner.js';

/** The trust boundaries of the workflows `init` writes, run as GitHub would run them. */
const emulator = useEmulator();
const NOW = new Date('2026-11-21T12:00:00Z');
const LAUNCH_POST = '---\nscheduledAt: 2027-01-05 09:00\ntargets: [photo]\nmedia: [media/welcome.png]\n---\nWe launch in January.\n';

const secrets = () => ({ POSTSYNC_API_URL: emulator().baseUrl, POSTSYNC_API_KEY: DEMO_API_KEY, POSTSYNC_API_READ_KEY: DEMO_API_KEY });

function only(runs: WorkflowJobRun[], job: string) {
  const found = runs.filter((run) => run.job === job);
  if (found.length !== 1) throw new Error(`expected one run of ${job}, got ${found.length}`);
  return found[0]!.result;
}

/** Every line of the workspace's git configuration that could hold a credential. */
async function storedCredentials(workspace: string): Promise<string[]> {
  const config = await readFile(join(workspace, '.git/config'), 'utf8');
  return config.split('\n').filter((line) => /extraheader|credential|authorization|x-access-token/i.test(line) || line.includes(HARNESS_TOKEN));
}

describe('the workflows init writes, at their trust boundaries', () => {
  it('refuses to apply a branch other than the default one, run by hand: nothing is applied', async () => {
    const { remote, editor } = await initRepository({ now: NOW });
    await git(editor, 'checkout', '-q', '-b', 'feature');
    await mkdir(join(editor, 'posts/2027-01'), { recursive: true });
    await writeFile(join(editor, 'posts/2027-01/launch.md'), LAUNCH_POST);
    await git(editor, 'add', '.');
    await git(editor, 'commit', '-q', '-m', 'Not reviewed yet');
    await git(editor, 'push', '-q', 'origin', 'feature');
    await emulator().clearLog();

    const runs = await runWorkflow(join(editor, '.github/workflows/postsync-apply.yml'), {
      workspace: await testdir(),
      remote,
      actionRef: ACTION_REF,
      secrets: secrets(),
      github: { event_name: 'workflow_dispatch', ref: 'refs/heads/feature', ref_name: 'feature', sha: await git(editor, 'rev-parse', 'HEAD'), event: { repository: { default_branch: 'main' } } },
    });
    const refusal = only(runs, 'refuse')!;
    expect(refusal.status).toBe('failure');
    expect(refusal.steps[0]!.commands).toEqual([
      '::error title=postsync::apply runs only on the default branch (main), not on refs/heads/feature: nothing was applied. Merge the branch, or run the workflow on main.',
    ]);
    expect(only(runs, 'calendars')).toBeNull();
    expect(only(runs, 'apply')).toBeNull();
    expect(await emulator().requestLog()).toEqual([]);
    expect(await git(remote, 'rev-list', '--count', 'feature')).toBe('2');
  }, 120_000);

  it('ends a pull request from a fork, which gets no secrets, green with a notice, running nothing', async () => {
    const workspace = await testdir();
    await initProject({ dir: workspace, now: NOW, timezone: 'UTC' });
    await emulator().clearLog();
    const pullRequest = { number: 12, head: { repo: { full_name: 'stranger/content' } } };
    const runs = await runWorkflow(join(workspace, '.github/workflows/postsync-plan.yml'), { workspace, actionRef: ACTION_REF, secrets: {}, github: { repository: 'northwind/content', event: { pull_request: pullRequest } } });
    const plan = only(runs, 'plan')!;
    expect(plan.status).toBe('success');
    expect(plan.steps.map((s) => `${s.name}: ${s.status}`)).toEqual([
      'Check for the secrets: success',
      'Check out the content: skipped',
      'Set up Node.js: skipped',
      'Set up postsync: skipped',
      'Read the state: skipped',
      'Plan: skipped',
      'Calendar: skipped',
      'Upload the calendar page: skipped',
    ]);
    expect(plan.steps[0]!.commands).toEqual([
      "::notice title=postsync::nothing was planned for .: this pull request comes from a fork, and GitHub gives a fork's workflows no secrets (POSTSYNC_API_READ_KEY). Its files are checked once a maintainer pushes the branch to this repository, or when it is merged.",
    ]);
    expect(await emulator().requestLog()).toEqual([]);
  });

  it('leaves no token in .git/config of the plan job', async () => {
    const { remote, editor } = await initRepository({ now: NOW });
    const sha = await git(editor, 'rev-parse', 'HEAD');
    const workspace = await testdir();
    let atPlan: string[] | undefined;
    const runs = await runWorkflow(join(editor, '.github/workflows/postsync-plan.yml'), {
      workspace,
      remote,
      actionRef: ACTION_REF,
      secrets: secrets(),
      github: { sha },
      beforeStep: async (name) => {
        if (name === 'Plan') atPlan = await storedCredentials(workspace);
      },
    });
    expect(only(runs, 'plan')!.steps.find((s) => s.name === 'Check out the content')!.status).toBe('success');
    expect(atPlan).toEqual([]);
  }, 120_000);

  // One apply run shows three things: no refusal on the default branch, the push with the token
  // handed to git alone, and no token left in .git/config of the job that pushed with it.
  it('applies the default branch without the refusal and pushes the state file with the token handed to git alone, over HTTP as on GitHub, leaving no token behind', async () => {
    const { remote: bare, editor } = await initRepository({ now: NOW });
    const remote = await startGitHttpRemote({ bare, token: HARNESS_TOKEN });
    try {
      // The remote refuses a push that brings no token, as GitHub does.
      await writeFile(join(editor, 'NOTES.md'), 'Campaign notes\n');
      await git(editor, 'add', 'NOTES.md');
      await git(editor, 'commit', '-q', '-m', 'Add notes');
      const push = promisify(execFile)('git', ['push', '-q', remote.url, 'HEAD:main'], { cwd: editor, env: { ...gitEnv(), GIT_TERMINAL_PROMPT: '0' } });
      await expect(push).rejects.toThrow();
      expect(remote.refusedPushes).toBeGreaterThan(0);
      const refused = remote.refusedPushes;

      const workspace = await testdir();
      const runs = await runWorkflow(join(editor, '.github/workflows/postsync-apply.yml'), { workspace, remote: remote.url, actionRef: ACTION_REF, secrets: secrets(), github: { sha: await git(bare, 'rev-parse', 'main') } });
      expect(only(runs, 'refuse')).toBeNull();
      expect(only(runs, 'apply')!.status).toBe('success');
      expect(only(runs, 'record')!.steps.find((s) => s.name === 'Record the states')!.stdout).toMatch(/^Recorded the states of 1 calendar on main in one commit/m);
      expect(remote.refusedPushes).toBe(refused);
      expect(await git(bare, 'log', '-1', '--format=%s', 'main')).toBe('postsync: record applied posts [skip ci]');
      expect(await storedCredentials(workspace)).toEqual([]);
      for (const run of runs) for (const ran of run.result?.steps ?? []) expect(`${ran.stdout}${ran.stderr}`).not.toContain(HARNESS_TOKEN);
    } finally {
      await remote.close();
    }
  }, 120_000);

  it('hands the GitHub token only to the commands that write to GitHub', async () => {
    const action = parse(await readFile(join(REPO_ROOT, 'action.yml'), 'utf8')) as { runs: { steps: { id?: string; env?: Record<string, string> }[] } };
    const run = action.runs.steps.find((step) => step.id === 'postsync')!;
    const tokenFor = (command: string, comment: string) => interpolate(run.env!.GITHUB_TOKEN ?? '', { inputs: { command, comment }, github: { token: HARNESS_TOKEN } });
    expect(['plan', 'apply', 'validate', 'setup'].map((command) => tokenFor(command, 'false'))).toEqual(['', '', '', '']);
    expect(tokenFor('plan', 'true')).toBe('');
    expect(tokenFor('calendar', 'false')).toBe('');
    expect(tokenFor('calendar', 'true')).toBe(HARNESS_TOKEN);

    // No step of a workflow holds both an API key and the GitHub token.
    for (const file of ['postsync-plan.yml', 'postsync-apply.yml', 'postsync-health.yml']) {
      const workflow = parse(await readFile(join(REPO_ROOT, 'examples/workflows', file), 'utf8')) as { jobs: Record<string, { steps: { name?: string; env?: Record<string, string> }[] }> };
      for (const job of Object.values(workflow.jobs)) {
        for (const step of job.steps) {
          if (step.name === 'Record the states') continue; // its GitHub token goes to git alone, see state-commit.ts
          expect(Object.keys(step.env ?? {}).filter((name) => name === 'GITHUB_TOKEN' || name === 'POSTSYNC_API_KEY'), `${file}: ${step.name}`).not.toHaveLength(2);
        }
      }
    }
  });
});
