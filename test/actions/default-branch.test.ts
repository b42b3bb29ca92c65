import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { initProject } from '../../src/init/init-project.js';
import { ACTION_REF } from '../../src/init/workflow-steps.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { git } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';
import { runWorkflow } from './workflow-runner.js';

/** A repository whose default branch is not main: init reads it from git, and `init --check` tells when the workflows disagree. */
const emulator = useEmulator();
const NOW = new Date('2026-11-21T12:00:00Z');
const LAUNCH_POST = '---\nscheduledAt: 2027-01-05 09:00\ntargets: [photo]\nmedia: [media/welcome.png]\n---\nWe launch in January.\n';

/** A bare remote whose default branch is `branch`, and a clone of it. */
async function repository(branch: string): Promise<{ remote: string; editor: string }> {
  const remote = await testdir();
  await git(remote, 'init', '-q', '--bare', `--initial-branch=${branch}`, '.');
  const editor = await testdir();
  await git(editor, 'clone', '-q', remote, '.');
  return { remote, editor };
}

/** Whether a push to `branch` starts the workflow in `file` (its `on.push.branches`, as GitHub filters them: names here). */
async function pushStarts(file: string, branch: string): Promise<boolean> {
  const workflow = parse(await readFile(file, 'utf8')) as { on: { push?: { branches?: string[] } } };
  return workflow.on.push?.branches?.includes(branch) ?? false;
}

describe('a repository whose default branch is trunk', () => {
  it('gets an apply workflow that a merge to trunk starts, and that applies it', async () => {
    const { remote, editor } = await repository('trunk');
    const init = await initProject({ dir: editor, now: NOW, timezone: 'UTC' });
    expect(init.defaultBranch.branch).toBe('trunk');
    await mkdir(join(editor, 'posts/2027-01'), { recursive: true });
    await writeFile(join(editor, 'posts/2027-01/launch.md'), LAUNCH_POST);
    await git(editor, 'add', '.');
    await git(editor, 'commit', '-q', '-m', 'Start the content calendar');
    await git(editor, 'push', '-q', 'origin', 'HEAD:trunk');
    const workflow = join(editor, '.github/workflows/postsync-apply.yml');

    expect(await pushStarts(workflow, 'trunk')).toBe(true);
    expect(await pushStarts(workflow, 'main')).toBe(false);
    const runs = await runWorkflow(workflow, {
      workspace: await testdir(),
      remote,
      actionRef: ACTION_REF,
      secrets: { POSTSYNC_API_URL: emulator().baseUrl, POSTSYNC_API_KEY: DEMO_API_KEY },
      github: { ref: 'refs/heads/trunk', ref_name: 'trunk', sha: await git(editor, 'rev-parse', 'HEAD'), event: { repository: { default_branch: 'trunk' }, before: '0000000000000000000000000000000000000000' } },
    });
    expect(runs.find((run) => run.job === 'refuse')?.result).toBeNull();
    const apply = runs.find((run) => run.job === 'apply')?.result;
    expect(apply?.status).toBe('success');
    expect(apply?.steps.find((step) => step.name === 'Apply')?.outputs).toMatchObject({ create: '2', failed: '0' });
    // The state went back to trunk.
    expect(await git(remote, 'log', '-1', '--format=%s', 'trunk')).toBe('postsync: record applied posts [skip ci]');
    expect(Object.keys(JSON.parse(await git(remote, 'show', 'trunk:.postsync/state.json')).targets)).toHaveLength(1);
  }, 120_000);

  it('init --check passes when the workflows apply the default branch, and says what to change when they do not', async () => {
    const { editor } = await repository('trunk');
    await initProject({ dir: editor, now: NOW, timezone: 'UTC', defaultBranch: 'main' });
    const wrong = await runCli(['init', '--check'], { cwd: editor });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toBe(
      'Problem: .github/workflows/postsync-apply.yml applies pushes to main, but the default branch is trunk (the branch checked out): merges to trunk are never applied. Write `branches: [trunk]` under `on: push:` in it.\n',
    );

    // Under Actions, GitHub's own setting decides, and the problem is a warning annotation too.
    const event = join(editor, '..', 'event.json');
    await writeFile(event, JSON.stringify({ repository: { default_branch: 'main' } }));
    const actions = await runCli(['init', '--check'], { cwd: editor, env: { GITHUB_ACTIONS: 'true', GITHUB_EVENT_PATH: event } });
    expect(actions.stdout).toBe(".github/workflows/postsync-apply.yml applies pushes to main, the default branch (GitHub's repository settings).\n");
    expect(actions.code).toBe(0);
    await writeFile(event, JSON.stringify({ repository: { default_branch: 'trunk' } }));
    const warned = await runCli(['init', '--check'], { cwd: editor, env: { GITHUB_ACTIONS: 'true', GITHUB_EVENT_PATH: event } });
    expect(warned.code).toBe(1);
    expect(warned.stderr).toContain("::warning title=postsync init --check::.github/workflows/postsync-apply.yml applies pushes to main, but the default branch is trunk (GitHub's repository settings)");
  }, 60_000);
});
