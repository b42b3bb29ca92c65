import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoFixture } from '../../src/emulator/index.js';
import { initProject } from '../../src/init/init-project.js';
import { ACTION_REF } from '../../src/init/workflow-steps.js';
import { useEmulator } from '../helpers/emulator.js';
import { git } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';
import { runWorkflow, type WorkflowJobRun } from './workflow-runner.js';

/** The apply workflow of a calendar whose postsync.yaml says `prune: true`. */

const SECRET_KEY = 'ci-prune-key-2b7e41';
const fixture = demoFixture();
fixture.projects[0]!.keys[0]!.token = SECRET_KEY;
const emulator = useEmulator({ fixture });
const NOW = new Date('2026-11-21T12:00:00Z');
const LAUNCH_POST = '---\nscheduledAt: 2027-01-05 09:00\ntargets: [photo]\nmedia: [media/welcome.png]\n---\nWe launch in January.\n';

function applyStep(runs: WorkflowJobRun[]) {
  const job = runs.find((run) => run.job === 'apply')?.result;
  const found = job?.steps.find((step) => step.name === 'Apply');
  if (!found) throw new Error('the Apply step did not run');
  return found;
}

describe('the apply workflow with prune: true', () => {
  it("deletes a removed file's scheduled post and says so in the summary", async () => {
    const remote = await testdir();
    await git(remote, 'init', '-q', '--bare', '--initial-branch=main', '.');
    const editor = await testdir();
    await git(editor, 'clone', '-q', remote, '.');
    await initProject({ dir: editor, now: NOW, timezone: 'UTC' });
    await appendFile(join(editor, 'postsync.yaml'), '\nprune: true\n');
    await mkdir(join(editor, 'posts/2027-01'), { recursive: true });
    await writeFile(join(editor, 'posts/2027-01/launch.md'), LAUNCH_POST);
    await git(editor, 'add', '.');
    await git(editor, 'commit', '-q', '-m', 'Start the content calendar');
    await git(editor, 'push', '-q', 'origin', 'HEAD:main');
    const workflow = join(editor, '.github/workflows/postsync-apply.yml');
    const options = { actionRef: ACTION_REF, remote, secrets: { POSTSYNC_API_URL: emulator().baseUrl, POSTSYNC_API_KEY: SECRET_KEY } };
    const first = await runWorkflow(workflow, { ...options, workspace: await testdir(), github: { sha: await git(editor, 'rev-parse', 'HEAD') } });
    expect(applyStep(first).outputs).toMatchObject({ create: '2', failed: '0' });

    // The state commit of that run, then a push that removes the launch post.
    await git(editor, 'pull', '-q', '--rebase', 'origin', 'main');
    const before = await git(editor, 'rev-parse', 'HEAD');
    await rm(join(editor, 'posts/2027-01/launch.md'));
    await git(editor, 'commit', '-q', '-a', '-m', 'No launch after all');
    await git(editor, 'push', '-q', 'origin', 'HEAD:main');
    const second = await runWorkflow(workflow, { ...options, workspace: await testdir(), github: { sha: await git(editor, 'rev-parse', 'HEAD'), event: { before } } });
    const apply = applyStep(second);
    expect(apply.outputs).toMatchObject({ delete: '1', failed: '0' });
    expect(apply.summary).toContain('prune: on, from postsync.yaml');
    const remotePosts = await emulator().api('GET', '/posts?limit=100', { key: SECRET_KEY });
    expect(remotePosts.body.data.items.map((post: { content: string }) => post.content)).not.toContain('We launch in January.');
  }, 180_000);
});
