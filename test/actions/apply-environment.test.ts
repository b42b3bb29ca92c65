import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ALL_PERMISSIONS } from '../../src/api/types.js';
import { demoFixture } from '../../src/emulator/index.js';
import { APPLY_ENVIRONMENT, ACTION_REF } from '../../src/init/workflow-steps.js';
import { WORKFLOW_FILES } from '../../src/init/workflows.js';
import { useEmulator } from '../helpers/emulator.js';
import { git } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';
import { initRepository } from './init-repository.js';
import { runWorkflow, runWorkflowJob, type WorkflowJobRun } from './workflow-runner.js';

/** The write key lives in the protected environment alone; plan and health read with a key that can only read. */
const WRITE_KEY = 'write-key-4be1c09a';
const READ_KEY = 'read-key-93d27f1e';
const fixture = demoFixture();
fixture.projects[0]!.keys = [
  { token: WRITE_KEY, permissions: [...ALL_PERMISSIONS] },
  { token: READ_KEY, permissions: ['accounts-read', 'posts-read'] },
];
const emulator = useEmulator({ fixture });
const NOW = new Date('2026-11-21T12:00:00Z');
const LAUNCH_POST = '---\nscheduledAt: 2027-01-05 09:00\ntargets: [photo]\nmedia: [media/welcome.png]\n---\nWe launch in January.\n';

/** As docs/github-actions.md says to set them up: the URL and the read key for the repository, the write key for the environment. */
const repositorySecrets = () => ({ POSTSYNC_API_URL: emulator().baseUrl, POSTSYNC_API_READ_KEY: READ_KEY });
const environments = { [APPLY_ENVIRONMENT]: { secrets: { POSTSYNC_API_KEY: WRITE_KEY }, branches: ['main'] } };

function only(runs: WorkflowJobRun[], job: string) {
  const found = runs.filter((run) => run.job === job);
  if (found.length !== 1 || !found[0]!.result) throw new Error(`expected one run of ${job}, got ${found.length}`);
  return found[0]!.result;
}

const seen = (runs: WorkflowJobRun[]) => runs.flatMap((run) => run.result?.steps ?? []).map((step) => `${step.stdout}${step.stderr}${step.summary}${JSON.stringify(step.outputs)}`).join('\n');

describe('the write key, kept in the protected environment', () => {
  it('is read by the apply job alone: every expression naming it is in a job of that environment', () => {
    for (const [file, text] of Object.entries(WORKFLOW_FILES)) {
      const workflow = parse(text) as { jobs: Record<string, { environment?: string }> };
      for (const [id, job] of Object.entries(workflow.jobs)) {
        const names = JSON.stringify(job).includes('matrix.calendar.apiKeySecret');
        expect(names ? job.environment : APPLY_ENVIRONMENT, `${file}: job ${id}`).toBe(APPLY_ENVIRONMENT);
      }
    }
    expect(WORKFLOW_FILES['.github/workflows/postsync-apply.yml']).toContain(`environment: ${APPLY_ENVIRONMENT}`);
  });

  it('plans a pull request and checks health with the read key, applies the merge with the write key', async () => {
    const { remote, editor } = await initRepository({ now: NOW });
    await mkdir(join(editor, 'posts/2027-01'), { recursive: true });
    await writeFile(join(editor, 'posts/2027-01/launch.md'), LAUNCH_POST);
    await git(editor, 'add', '.');
    await git(editor, 'commit', '-q', '-m', 'Launch post');
    await git(editor, 'push', '-q', 'origin', 'HEAD:main');
    const sha = await git(editor, 'rev-parse', 'HEAD');
    const options = { remote, actionRef: ACTION_REF, secrets: repositorySecrets(), environments };

    const plan = await runWorkflow(join(editor, '.github/workflows/postsync-plan.yml'), { ...options, workspace: await testdir(), github: { sha, ref: 'refs/pull/7/merge', ref_name: '7/merge', event: { pull_request: { number: 7 } } } });
    expect(only(plan, 'plan').steps.find((step) => step.name === 'Plan')?.outputs).toMatchObject({ create: '2', errors: '0' });
    expect(only(plan, 'plan').status).toBe('success');

    const apply = await runWorkflow(join(editor, '.github/workflows/postsync-apply.yml'), { ...options, workspace: await testdir(), github: { sha, event: { before: '0000000000000000000000000000000000000000' } } });
    expect(only(apply, 'apply').status).toBe('success');
    expect(only(apply, 'apply').steps.find((step) => step.name === 'Apply')?.outputs).toMatchObject({ create: '2', failed: '0' });
    const posts = await emulator().api('GET', '/posts?limit=100', { key: WRITE_KEY });
    expect(posts.body.data.items.map((post: { content: string }) => post.content)).toContain('We launch in January.');

    const health = await runWorkflow(join(editor, '.github/workflows/postsync-health.yml'), { ...options, workspace: await testdir(), github: { sha: await git(remote, 'rev-parse', 'main') } });
    // Nothing to change, no problem: both checks read the API with the read key.
    expect(only(health, 'health').steps.find((step) => step.name === 'Check')?.outputs).toMatchObject({ 'plan-exit': '0', 'status-exit': '0' });

    // A pull request that edits the applied post: the read key plans the update (it cannot check the
    // seals the write key made, and says so), where a plan with another key would block it as unconfirmed.
    await git(editor, 'pull', '-q', '--rebase', 'origin', 'main');
    await writeFile(join(editor, 'posts/2027-01/launch.md'), LAUNCH_POST.replace('We launch', 'We open'));
    await git(editor, 'commit', '-q', '-am', 'Reword the launch');
    await git(editor, 'push', '-q', 'origin', 'HEAD:edit');
    const edit = await runWorkflow(join(editor, '.github/workflows/postsync-plan.yml'), { ...options, workspace: await testdir(), github: { sha: await git(editor, 'rev-parse', 'HEAD'), ref: 'refs/pull/8/merge', ref_name: '8/merge', event: { pull_request: { number: 8 } } } });
    const editPlan = only(edit, 'plan').steps.find((step) => step.name === 'Plan')!;
    expect(editPlan.outputs).toMatchObject({ update: '1', blocked: '0', create: '0' });
    expect(editPlan.summary).toContain('state seals not checked (a read-only key: apply checks them)');
    for (const runs of [plan, apply, health, edit]) expect(seen(runs)).not.toContain(WRITE_KEY);
  }, 120_000);

  it('is out of reach of a pull request: a job it adds that names the environment is refused, one that does not gets no key', async () => {
    const workspace = await testdir();
    const workflow = join(workspace, 'steal.yml');
    const leak = { name: 'Leak', env: { KEY: '${{ secrets.POSTSYNC_API_KEY }}' }, run: 'echo "key=[$KEY]"' };
    await writeFile(workflow, JSON.stringify({ on: 'pull_request', jobs: { named: { environment: APPLY_ENVIRONMENT, 'runs-on': 'ubuntu-latest', steps: [leak] }, plain: { 'runs-on': 'ubuntu-latest', steps: [leak] } } }));
    const pullRequest = { workspace, actionRef: ACTION_REF, secrets: repositorySecrets(), environments, github: { ref: 'refs/pull/7/merge', ref_name: '7/merge' } };

    const named = await runWorkflowJob(workflow, 'named', pullRequest);
    expect(named).toMatchObject({ status: 'failure', steps: [], refused: `Branch "7/merge" is not allowed to deploy to ${APPLY_ENVIRONMENT} due to environment protection rules.` });
    expect((await runWorkflowJob(workflow, 'plain', pullRequest)).steps[0]!.stdout).toBe('key=[]\n');
    // The default branch may use it.
    expect((await runWorkflowJob(workflow, 'named', { ...pullRequest, github: {} })).steps[0]!.stdout).toBe(`key=[${WRITE_KEY}]\n`);
  });

  it('says which secret is missing and where it belongs: the write key in the environment, the read key in the repository', async () => {
    const { remote, editor } = await initRepository({ now: NOW });
    const sha = await git(editor, 'rev-parse', 'HEAD');
    const base = { remote, actionRef: ACTION_REF, secrets: { POSTSYNC_API_URL: emulator().baseUrl } };
    const apply = only(await runWorkflow(join(editor, '.github/workflows/postsync-apply.yml'), { ...base, workspace: await testdir(), github: { sha } }), 'apply');
    expect(apply.status).toBe('failure');
    expect(apply.steps.map((step) => `${step.name}: ${step.status}`).slice(0, 2)).toEqual(['Check for the key: failure', 'Check out the content: skipped']);
    expect(apply.steps[0]!.commands).toEqual([
      `::error title=postsync::nothing was applied for .: the secret POSTSYNC_API_KEY is not set. The apply job takes its key from the environment ${APPLY_ENVIRONMENT} alone (Settings > Environments > ${APPLY_ENVIRONMENT} > Environment secrets), which only the default branch may use: see the postsync docs, GitHub Actions > Secrets.`,
    ]);
    const plan = only(await runWorkflow(join(editor, '.github/workflows/postsync-plan.yml'), { ...base, workspace: await testdir(), github: { sha, event: { pull_request: { number: 7 } } } }), 'plan');
    expect(plan.status).toBe('failure');
    expect(plan.steps[0]!.commands).toEqual([
      '::error title=postsync::nothing was planned for .: the repository secret POSTSYNC_API_READ_KEY is not set. Plan and health checks read the API with a key of their own that can only read (accounts-read, posts-read): see the postsync docs, GitHub Actions > Secrets.',
    ]);
    expect(plan.steps.slice(1).every((step) => step.status === 'skipped')).toBe(true);
    expect(await readFile(join(editor, '.github/workflows/postsync-apply.yml'), 'utf8')).toContain(`environment: ${APPLY_ENVIRONMENT}`);
  }, 60_000);
});
