import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { demoFixture } from '../../src/emulator/index.js';
import { initProject } from '../../src/init/init-project.js';
import { ACTION_REF } from '../../src/init/workflow-steps.js';
import { useEmulator } from '../helpers/emulator.js';
import { git } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';
import { runWorkflow, runWorkflowJob, type JobResult, type StepResult, type WorkflowJobRun } from './workflow-runner.js';

const SECRET_KEY = 'ci-secret-7f3a9c2e51';
const fixture = demoFixture();
fixture.projects[0]!.keys[0]!.token = SECRET_KEY;
const emulator = useEmulator({ fixture });

const NOW = new Date('2026-11-21T12:00:00Z');
const BROKEN_POST = '---\ntargets: [photo]\nmedai: [media/welcome.png]\n---\nOops, a typo above.\n';
const LAUNCH_POST = '---\nscheduledAt: 2027-01-05 09:00\ntargets: [photo]\nmedia: [media/welcome.png]\n---\nWe launch in January.\n';

function secrets(suffix = ''): Record<string, string> {
  return { [`POSTSYNC_API_URL${suffix}`]: emulator().baseUrl, [`POSTSYNC_API_KEY${suffix}`]: SECRET_KEY, [`POSTSYNC_API_READ_KEY${suffix}`]: SECRET_KEY };
}

function step(job: JobResult | null, name: string): StepResult {
  if (!job) throw new Error('the job did not run');
  const found = job.steps.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no step ${name}: ${job.steps.map((s) => s.name).join(', ')}`);
  return found;
}

/** The run of `job` (the only one, or the one for the calendar in `folder`). */
function jobRun(runs: WorkflowJobRun[], job: string, folder?: string): JobResult {
  const found = runs.filter((run) => run.job === job && (folder === undefined || (run.matrix?.calendar as { folder: string } | undefined)?.folder === folder));
  if (found.length !== 1 || !found[0]!.result) throw new Error(`expected one run of ${job}${folder ? ` for ${folder}` : ''}, got ${found.length}`);
  return found[0]!.result;
}

function expectNoKey(runs: WorkflowJobRun[]): void {
  for (const run of runs) for (const ran of run.result?.steps ?? []) expect(`${ran.stdout}${ran.stderr}${ran.summary}${JSON.stringify(ran.outputs)}`).not.toContain(SECRET_KEY);
}

describe('the plan workflow on a pull request', () => {
  it('writes the Markdown plan to the job summary, the counts to the outputs and an annotation per problem', async () => {
    const workspace = await testdir();
    await initProject({ dir: workspace, now: NOW, timezone: 'UTC' });
    await mkdir(join(workspace, 'posts/2027-01'), { recursive: true });
    await writeFile(join(workspace, 'posts/2027-01/launch.md'), LAUNCH_POST);
    await writeFile(join(workspace, 'posts/2026-11/broken.md'), BROKEN_POST);
    const workflow = join(workspace, '.github/workflows/postsync-plan.yml');

    let runs = await runWorkflow(workflow, { workspace, actionRef: ACTION_REF, secrets: secrets(), github: { event: { pull_request: { number: 7 } } } });
    // Not a git checkout here: the workflow cannot tell what changed, so it plans every calendar.
    expect(step(jobRun(runs, 'calendars'), 'Find the calendars').stdout).toContain('Cannot tell what the pull request changed: planning every calendar.');
    const job = jobRun(runs, 'plan', '.');
    expect(job.steps.map((s) => `${s.name}: ${s.status}`)).toEqual(['Check for the secrets: success', 'Check out the content: provided', 'Set up Node.js: provided', 'Set up postsync: success', 'Read the state: success', 'Plan: failure', 'Calendar: success', 'Upload the calendar page: success']);
    const plan = step(job, 'Plan');
    expect(plan.outputs).toMatchObject({ 'has-changes': 'true', create: '2', update: '0', delete: '0', move: '0', blocked: '1', errors: '1', warnings: '0' });
    expect(plan.summary).toContain('### postsync plan');
    expect(plan.summary).toContain(`Target: ${emulator().baseUrl} (project demo)`);
    expect(plan.summary).toContain('**Plan: 2 to create, 0 to update, 0 to delete. 1 blocked (invalid files).**');
    expect(plan.summary).toContain('| 🟢 | create | `2026-11/welcome` | `posts/2026-11/welcome.md` | new file (');
    expect(plan.summary).toContain('| 🟢 | create | `2027-01/launch` | `posts/2027-01/launch.md` | new file (');
    // The broken file blocks only its own post, and says why.
    expect(plan.summary).toContain('| ⛔ | blocked | `2026-11/broken` | `posts/2026-11/broken.md` | posts/2026-11/broken.md has an error: unknown field `medai`; the post is not created until it is fixed |');
    expect(plan.summary).toContain('- **error** `posts/2026-11/broken.md:3:1`: unknown field `medai`');
    expect(plan.commands).toEqual([
      '::error file=posts/2026-11/broken.md,line=3,col=1,title=postsync unknown-field::unknown field `medai`%0Aexpected: one of `id`, `scheduledAt`, `draft`, `repeat`, `variants`, `occurrences`, `targets`, `media`%0Afound: `medai`%0Ahint: did you mean `media`?',
      '::warning file=posts/2026-11/broken.md,title=postsync blocked::2026-11/broken is blocked: posts/2026-11/broken.md has an error: unknown field `medai`; the post is not created until it is fixed',
    ]);
    expectNoKey(runs);

    await writeFile(join(workspace, 'posts/2026-11/broken.md'), BROKEN_POST.replace('medai', 'media'));
    runs = await runWorkflow(workflow, { workspace, actionRef: ACTION_REF, secrets: secrets() });
    expect(jobRun(runs, 'plan', '.').status).toBe('success');
    expect(step(jobRun(runs, 'plan', '.'), 'Plan').outputs).toMatchObject({ 'has-changes': 'true', create: '3', errors: '0' });
    expect(step(jobRun(runs, 'plan', '.'), 'Plan').commands).toEqual([]);
  }, 120_000);

  it('plans only the calendars the pull request touches, each with the secrets named by its folder', async () => {
    const remote = await testdir();
    await git(remote, 'init', '-q', '--bare', '--initial-branch=main', '.');
    const editor = await testdir();
    await git(editor, 'clone', '-q', remote, '.');
    await initProject({ dir: join(editor, 'clients/acme'), now: NOW, timezone: 'UTC' });
    await initProject({ dir: join(editor, 'clients/bolt'), now: NOW, timezone: 'UTC' });
    // GitHub reads workflows at the repository root only: one calendar's .github moves there.
    await rename(join(editor, 'clients/acme/.github'), join(editor, '.github'));
    await rm(join(editor, 'clients/bolt/.github'), { recursive: true });
    await git(editor, 'add', '.');
    await git(editor, 'commit', '-q', '-m', 'Two calendars');
    await writeFile(join(editor, 'clients/bolt/posts/2026-11/broken.md'), BROKEN_POST);
    await git(editor, 'add', '.');
    await git(editor, 'commit', '-q', '-m', 'A pull request that touches bolt only');
    await git(editor, 'push', '-q', 'origin', 'HEAD:main');
    const workflow = join(editor, '.github/workflows/postsync-plan.yml');

    // The merge commit of the pull request is what the plan workflow checks out.
    const runs = await runWorkflow(workflow, { workspace: await testdir(), remote, actionRef: ACTION_REF, secrets: secrets('_CLIENTS_BOLT'), github: { sha: await git(editor, 'rev-parse', 'HEAD') } });
    expect(runs.filter((run) => run.job === 'plan').map((run) => (run.matrix?.calendar as { folder: string }).folder)).toEqual(['clients/bolt']);
    const plan = step(jobRun(runs, 'plan', 'clients/bolt'), 'Plan');
    expect(plan.status).toBe('failure');
    expect(plan.summary).toContain(`Target: ${emulator().baseUrl} (project demo)`);
    // Annotations are placed from the repository root, the summary speaks of project paths.
    expect(plan.commands).toHaveLength(2);
    expect(plan.commands[0]).toMatch(/^::error file=clients\/bolt\/posts\/2026-11\/broken\.md,line=3,col=1,title=postsync unknown-field::/);
    expect(plan.commands[1]).toMatch(/^::warning file=clients\/bolt\/posts\/2026-11\/broken\.md,title=postsync blocked::2026-11\/broken is blocked: /);
    expect(plan.summary).toContain('`posts/2026-11/broken.md:3:1`');
  }, 120_000);

  it('runs validate through the same action: summary, error counts and annotations', async () => {
    const workspace = await testdir();
    await initProject({ dir: workspace, now: NOW, timezone: 'UTC' });
    await writeFile(join(workspace, 'posts/2026-11/broken.md'), BROKEN_POST);
    const document = parseDocument(await readFile(join(workspace, '.github/workflows/postsync-plan.yml'), 'utf8'));
    document.setIn(['jobs', 'plan', 'steps', 5, 'with', 'command'], 'validate');
    const workflow = join(workspace, 'validate.yml');
    await writeFile(workflow, document.toString());

    const validate = step(jobRun(await runWorkflow(workflow, { workspace, actionRef: ACTION_REF, secrets: secrets() }), 'plan', '.'), 'Plan');
    expect(validate.status).toBe('failure');
    expect(validate.outputs).toMatchObject({ errors: '1', warnings: '0', 'has-changes': '' });
    expect(validate.summary).toContain('### postsync validate\n\n**❌ 1 error, 0 warnings.**');
    expect(validate.summary).toContain('| ❌ | `posts/2026-11/broken.md:3:1` | unknown field `medai` (`unknown-field`) | did you mean `media`? |');
    expect(validate.commands).toHaveLength(1);
    expect(validate.commands[0]).toMatch(/^::error file=posts\/2026-11\/broken\.md,line=3,col=1,title=postsync unknown-field::/);
  });

  it('fails with a clear message when the secrets are missing (CI never falls back to the local API)', async () => {
    const workspace = await testdir();
    await initProject({ dir: workspace, now: NOW, timezone: 'UTC' });
    const runs = await runWorkflow(join(workspace, '.github/workflows/postsync-plan.yml'), { workspace, actionRef: ACTION_REF, secrets: { POSTSYNC_API_READ_KEY: SECRET_KEY } });
    const plan = step(jobRun(runs, 'plan', '.'), 'Plan');
    expect(plan.status).toBe('failure');
    expect(plan.stderr).toContain('No API URL is configured, and under CI postsync does not fall back to the local API.');
    expect(plan.outputs).toEqual({ 'has-changes': '', create: '', update: '', delete: '', move: '', adopt: '', blocked: '', errors: '', warnings: '', failed: '' });
  });
});

describe('the apply workflow on a push to main', () => {
  it('applies, commits the state file back with the bot identity and [skip ci], and converges', async () => {
    const remote = await testdir();
    await git(remote, 'init', '-q', '--bare', '--initial-branch=main', '.');
    const editor = await testdir();
    await git(editor, 'clone', '-q', remote, '.');
    await initProject({ dir: editor, now: NOW, timezone: 'UTC' });
    await mkdir(join(editor, 'posts/2027-01'), { recursive: true });
    await writeFile(join(editor, 'posts/2027-01/launch.md'), LAUNCH_POST);
    await git(editor, 'add', '.');
    await git(editor, 'commit', '-q', '-m', 'Start the content calendar');
    await git(editor, 'push', '-q', 'origin', 'HEAD:main');
    const pushed = await git(editor, 'rev-parse', 'HEAD');
    const workflow = join(editor, '.github/workflows/postsync-apply.yml');
    // Someone else lands a commit while the apply runs: the state commit goes on top of it.
    const landNotes = async (name: string) => {
      if (name !== 'Record the states') return;
      const other = await testdir();
      await git(other, 'clone', '-q', remote, '.');
      await writeFile(join(other, 'NOTES.md'), 'Campaign notes\n');
      await git(other, 'add', 'NOTES.md');
      await git(other, 'commit', '-q', '-m', 'Add notes');
      await git(other, 'push', '-q', 'origin', 'main');
    };

    let runs = await runWorkflow(workflow, { workspace: await testdir(), remote, actionRef: ACTION_REF, secrets: secrets(), github: { sha: pushed, event: { before: '0000000000000000000000000000000000000000' } }, beforeStep: landNotes });
    expect(step(jobRun(runs, 'calendars'), 'Find the calendars').stdout).toContain('applying every calendar');
    const job = jobRun(runs, 'apply', '.');
    expect(job.steps.map((s) => `${s.name}: ${s.status}`)).toEqual(['Check for the key: success', 'Check out the content: success', 'Set up Node.js: provided', 'Set up postsync: success', 'Read the state: success', 'Apply: success', 'Hand on the state: success', 'Upload the state: success', 'Check for problems: success']);
    const apply = step(job, 'Apply');
    expect(apply.outputs).toMatchObject({ 'has-changes': 'true', create: '2', errors: '0', failed: '0' });
    expect(apply.summary).toContain('**Plan: 2 to create, 0 to update, 0 to delete.**');
    expect(apply.summary).toContain('**Apply complete: 2 created, 0 updated, 0 deleted, 0 moved, 0 adopted; 1 media uploaded.**');
    expect(step(jobRun(runs, 'record'), 'Record the states').stdout).toMatch(/^Recorded the states of 1 calendar on main in one commit \(commit [0-9a-f]{12}\)\.$/m);
    expectNoKey(runs);

    expect(await git(remote, 'log', '-3', '--format=%an <%ae>|%s', 'main')).toBe(
      ['github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>|postsync: record applied posts [skip ci]', 'Editor <editor@example.com>|Add notes', 'Editor <editor@example.com>|Start the content calendar'].join('\n'),
    );
    const state = JSON.parse(await git(remote, 'show', 'main:.postsync/state.json')) as { targets: Record<string, { posts: Record<string, unknown> }> };
    expect(Object.keys(Object.values(state.targets)[0]!.posts).sort()).toEqual(['2026-11/welcome', '2027-01/launch']);
    const remotePosts = await emulator().api('GET', '/posts?limit=100', { key: SECRET_KEY });
    expect(remotePosts.body.data.items.map((post: { content: string }) => post.content).sort()).toContain('We launch in January.');

    runs = await runWorkflow(workflow, { workspace: await testdir(), remote, actionRef: ACTION_REF, secrets: secrets(), github: { sha: pushed, event: { before: pushed } } });
    // Nothing of a calendar changed between before and the pushed commit: no apply job at all.
    expect(runs.find((run) => run.job === 'apply')?.result).toBeNull();
    runs = await runWorkflow(workflow, { workspace: await testdir(), remote, actionRef: ACTION_REF, secrets: secrets(), github: { sha: pushed } });
    expect(step(jobRun(runs, 'apply', '.'), 'Apply').outputs).toMatchObject({ 'has-changes': 'false', create: '0', update: '0' });
    expect(step(jobRun(runs, 'record'), 'Record the states').stdout).toContain('The states of 1 calendar on main are already these: nothing to push.');
    expect(await git(remote, 'rev-list', '--count', 'main')).toBe('3');
  }, 120_000);

  it('with the strict input, applies nothing while a file is broken; without it, applies the rest and fails', async () => {
    const workspace = await testdir();
    // A fresh remote: the example post an earlier test applied would be adopted, not created.
    await emulator().reset();
    await initProject({ dir: workspace, now: NOW, timezone: 'UTC' });
    await writeFile(join(workspace, 'posts/2026-11/broken.md'), BROKEN_POST);
    const workflow = join(workspace, 'apply.yml');
    const applyWith = async (strict: string | undefined) => {
      const inputs = { command: 'apply', args: '--yes', 'api-url': '${{ secrets.POSTSYNC_API_URL }}', 'api-key': '${{ secrets.POSTSYNC_API_KEY }}', ...(strict === undefined ? {} : { strict }) };
      await writeFile(workflow, JSON.stringify({ on: 'push', jobs: { apply: { 'runs-on': 'ubuntu-latest', steps: [{ name: 'Apply', uses: ACTION_REF, with: inputs }] } } }));
      await emulator().clearLog();
      const job = await runWorkflowJob(workflow, 'apply', { workspace, actionRef: ACTION_REF, secrets: secrets() });
      const writes = (await emulator().requestLog()).filter((entry) => entry.method !== 'GET');
      return { apply: step(job, 'Apply'), writes };
    };

    const strict = await applyWith('true');
    expect(strict.apply.status).toBe('failure');
    expect(strict.apply.stdout).toContain('Nothing was applied (--strict): fix the errors above first.');
    expect(strict.writes).toEqual([]);

    const partial = await applyWith(undefined);
    expect(partial.apply.status).toBe('failure');
    expect(partial.apply.stdout).toContain('Applied 1, blocked 1 (invalid files): 1 created');
    expect(partial.apply.summary).toContain('**Applied 1, blocked 1 (invalid files): 1 created, 0 updated, 0 deleted, 0 moved, 0 adopted; 1 media uploaded. Fix the errors above, then apply again.**');
    expect(partial.writes.filter((entry) => entry.method === 'POST' && entry.path === '/public/v1/posts')).toHaveLength(1);
  });
});
