import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { demoFixture } from '../../src/emulator/index.js';
import { initProject } from '../../src/init/init-project.js';
import { ACTION_REF } from '../../src/init/workflows.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { runWorkflowJob, type JobResult, type StepResult } from './workflow-runner.js';

const SECRET_KEY = 'ci-secret-7f3a9c2e51';
const fixture = demoFixture();
fixture.projects[0]!.keys[0]!.token = SECRET_KEY;
const emulator = useEmulator({ fixture });

const NOW = new Date('2026-11-21T12:00:00Z');
const BROKEN_POST = '---\ntargets: [photo]\nmedai: [media/welcome.png]\n---\nOops, a typo above.\n';
const LAUNCH_POST = '---\nscheduledAt: 2027-01-05 09:00\ntargets: [photo]\nmedia: [media/welcome.png]\n---\nWe launch in January.\n';

async function git(cwd: string, ...args: string[]): Promise<string> {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'Editor', GIT_AUTHOR_EMAIL: 'editor@example.com', GIT_COMMITTER_NAME: 'Editor', GIT_COMMITTER_EMAIL: 'editor@example.com' };
  const { stdout } = await promisify(execFile)('git', args, { cwd, env });
  return stdout.trim();
}

function secrets(): Record<string, string> {
  return { POSTSYNC_API_URL: emulator().baseUrl, POSTSYNC_API_KEY: SECRET_KEY };
}

function step(job: JobResult, name: string): StepResult {
  const found = job.steps.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no step ${name}: ${job.steps.map((s) => s.name).join(', ')}`);
  return found;
}

function expectNoKey(job: JobResult): void {
  for (const ran of job.steps) expect(`${ran.stdout}${ran.stderr}${ran.summary}${JSON.stringify(ran.outputs)}`).not.toContain(SECRET_KEY);
}

describe('the plan workflow on a pull request', () => {
  it('writes the Markdown plan to the job summary, the counts to the outputs and an annotation per problem', async () => {
    const workspace = await testdir();
    await initProject({ dir: workspace, now: NOW, timezone: 'UTC' });
    await mkdir(join(workspace, 'posts/2027-01'), { recursive: true });
    await writeFile(join(workspace, 'posts/2027-01/launch.md'), LAUNCH_POST);
    await writeFile(join(workspace, 'posts/2026-11/broken.md'), BROKEN_POST);
    const workflow = join(workspace, '.github/workflows/postsync-plan.yml');

    let job = await runWorkflowJob(workflow, 'plan', { workspace, actionRef: ACTION_REF, secrets: secrets(), github: { event: { pull_request: { number: 7 } } } });
    expect(job.steps.map((s) => `${s.name}: ${s.status}`)).toEqual(['Check out the content: provided', 'Set up Node.js: provided', 'Plan: failure']);
    const plan = step(job, 'Plan');
    expect(plan.outputs).toMatchObject({ 'has-changes': 'true', create: '2', update: '0', delete: '0', move: '0', blocked: '1', errors: '1', warnings: '0' });
    expect(plan.summary).toContain('### postsync plan');
    expect(plan.summary).toContain(`Target: ${emulator().baseUrl} (project demo)`);
    expect(plan.summary).toContain('**Plan: 2 to create, 0 to update, 0 to delete. 1 blocked (invalid files).**');
    expect(plan.summary).toContain('| 🟢 | create | `2026-11/welcome` | `posts/2026-11/welcome.md` | new file |');
    expect(plan.summary).toContain('| 🟢 | create | `2027-01/launch` | `posts/2027-01/launch.md` | new file |');
    // The broken file blocks only its own post, and says why.
    expect(plan.summary).toContain('| ⛔ | blocked | `2026-11/broken` | `posts/2026-11/broken.md` | posts/2026-11/broken.md has an error: unknown field `medai`; the post is not created until it is fixed |');
    expect(plan.summary).toContain('- **error** `posts/2026-11/broken.md:3:1`: unknown field `medai`');
    expect(plan.commands).toEqual([
      '::error file=posts/2026-11/broken.md,line=3,col=1,title=postsync unknown-field::unknown field `medai`%0Aexpected: one of `id`, `scheduledAt`, `draft`, `targets`, `media`%0Afound: `medai`%0Ahint: did you mean `media`?',
      '::warning file=posts/2026-11/broken.md,title=postsync blocked::2026-11/broken is blocked: posts/2026-11/broken.md has an error: unknown field `medai`; the post is not created until it is fixed',
    ]);
    expectNoKey(job);

    await writeFile(join(workspace, 'posts/2026-11/broken.md'), BROKEN_POST.replace('medai', 'media'));
    job = await runWorkflowJob(workflow, 'plan', { workspace, actionRef: ACTION_REF, secrets: secrets() });
    expect(job.status).toBe('success');
    expect(step(job, 'Plan').outputs).toMatchObject({ 'has-changes': 'true', create: '3', errors: '0' });
    expect(step(job, 'Plan').commands).toEqual([]);
  });

  it('points annotations at the file from the repository root when the project is in a sub-folder', async () => {
    const workspace = await testdir();
    await initProject({ dir: join(workspace, 'social'), now: NOW, timezone: 'UTC' });
    await writeFile(join(workspace, 'social/posts/2026-11/broken.md'), BROKEN_POST);
    // The same workflow, told where the project is through the action's working-directory input.
    const document = parseDocument(await readFile(join(workspace, 'social/.github/workflows/postsync-plan.yml'), 'utf8'));
    document.setIn(['jobs', 'plan', 'steps', 2, 'with', 'working-directory'], 'social');
    const workflow = join(workspace, 'plan-in-subfolder.yml');
    await writeFile(workflow, document.toString());

    const job = await runWorkflowJob(workflow, 'plan', { workspace, actionRef: ACTION_REF, secrets: secrets() });
    const plan = step(job, 'Plan');
    expect(plan.status).toBe('failure');
    expect(plan.commands).toHaveLength(2);
    expect(plan.commands[0]).toMatch(/^::error file=social\/posts\/2026-11\/broken\.md,line=3,col=1,title=postsync unknown-field::/);
    expect(plan.commands[1]).toMatch(/^::warning file=social\/posts\/2026-11\/broken\.md,title=postsync blocked::2026-11\/broken is blocked: /);
    // The summary speaks of project paths, as the rest of postsync's output does.
    expect(plan.summary).toContain('`posts/2026-11/broken.md:3:1`');
  });

  it('runs validate through the same action: summary, error counts and annotations', async () => {
    const workspace = await testdir();
    await initProject({ dir: workspace, now: NOW, timezone: 'UTC' });
    await writeFile(join(workspace, 'posts/2026-11/broken.md'), BROKEN_POST);
    const document = parseDocument(await readFile(join(workspace, '.github/workflows/postsync-plan.yml'), 'utf8'));
    document.setIn(['jobs', 'plan', 'steps', 2, 'with', 'command'], 'validate');
    const workflow = join(workspace, 'validate.yml');
    await writeFile(workflow, document.toString());

    const job = await runWorkflowJob(workflow, 'plan', { workspace, actionRef: ACTION_REF, secrets: secrets() });
    const validate = step(job, 'Plan');
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
    const job = await runWorkflowJob(join(workspace, '.github/workflows/postsync-plan.yml'), 'plan', { workspace, actionRef: ACTION_REF, secrets: {} });
    const plan = step(job, 'Plan');
    expect(plan.status).toBe('failure');
    expect(plan.stderr).toContain('No API URL is configured, and under CI postsync does not fall back to the local API.');
    expect(plan.outputs).toEqual({ 'has-changes': '', create: '', update: '', delete: '', move: '', blocked: '', errors: '', warnings: '', failed: '' });
  });
});

describe('the apply workflow on a push to main', () => {
  it('applies, commits the state file back with the bot identity and [skip ci], and converges', async () => {
    const remote = await testdir();
    await git(remote, 'init', '--bare', '--initial-branch=main', '.');
    const workspace = await testdir();
    await git(workspace, 'clone', remote, '.');
    await initProject({ dir: workspace, now: NOW, timezone: 'UTC' });
    await mkdir(join(workspace, 'posts/2027-01'), { recursive: true });
    await writeFile(join(workspace, 'posts/2027-01/launch.md'), LAUNCH_POST);
    await git(workspace, 'symbolic-ref', 'HEAD', 'refs/heads/main');
    await git(workspace, 'add', '.');
    await git(workspace, 'commit', '-m', 'Start the content calendar');
    await git(workspace, 'push', 'origin', 'main');
    // Someone else lands a commit while the apply runs: the state commit is rebased onto it.
    const other = await testdir();
    await git(other, 'clone', remote, '.');
    await writeFile(join(other, 'NOTES.md'), 'Campaign notes\n');
    await git(other, 'add', 'NOTES.md');
    await git(other, 'commit', '-m', 'Add notes');
    await git(other, 'push', 'origin', 'main');

    const workflow = join(workspace, '.github/workflows/postsync-apply.yml');
    let job = await runWorkflowJob(workflow, 'apply', { workspace, actionRef: ACTION_REF, secrets: secrets() });
    expect(job.steps.map((s) => `${s.name}: ${s.status}`)).toEqual([
      'Check out the content: provided',
      'Set up Node.js: provided',
      'Apply: success',
      'Commit the state file: success',
    ]);
    const apply = step(job, 'Apply');
    expect(apply.outputs).toMatchObject({ 'has-changes': 'true', create: '2', errors: '0', failed: '0' });
    expect(apply.summary).toContain('**Plan: 2 to create, 0 to update, 0 to delete.**');
    expect(apply.summary).toContain('**Apply complete: 2 created, 0 updated, 0 deleted, 0 moved; 1 media uploaded.**');
    expectNoKey(job);

    expect(await git(remote, 'log', '-3', '--format=%an <%ae>|%s', 'main')).toBe(
      ['github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>|postsync: record applied posts [skip ci]', 'Editor <editor@example.com>|Add notes', 'Editor <editor@example.com>|Start the content calendar'].join('\n'),
    );
    const state = JSON.parse(await git(remote, 'show', 'main:.postsync/state.json')) as { targets: Record<string, { posts: Record<string, unknown> }> };
    expect(Object.keys(Object.values(state.targets)[0]!.posts).sort()).toEqual(['2026-11/welcome', '2027-01/launch']);
    const remotePosts = await emulator().api('GET', '/posts?limit=100', { key: SECRET_KEY });
    expect(remotePosts.body.data.items.map((post: { content: string }) => post.content).sort()).toContain('We launch in January.');

    job = await runWorkflowJob(workflow, 'apply', { workspace, actionRef: ACTION_REF, secrets: secrets() });
    expect(step(job, 'Apply').outputs).toMatchObject({ 'has-changes': 'false', create: '0', update: '0' });
    expect(step(job, 'Commit the state file').stdout).toContain('The state file is unchanged.');
    expect(await git(remote, 'rev-list', '--count', 'main')).toBe('3');
  });

  it('with the strict input, applies nothing while a file is broken; without it, applies the rest and fails', async () => {
    const workspace = await testdir();
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
    expect(partial.apply.summary).toContain('**Applied 1, blocked 1 (invalid files): 1 created, 0 updated, 0 deleted, 0 moved; 1 media uploaded. Fix the errors above, then apply again.**');
    expect(partial.writes.filter((entry) => entry.method === 'POST' && entry.path === '/public/v1/posts')).toHaveLength(1);
  });
});
