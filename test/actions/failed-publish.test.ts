import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY, demoFixture } from '../../src/emulator/index.js';
import { ACTION_REF } from '../../src/init/workflow-steps.js';
import { useEmulator } from '../helpers/emulator.js';
import { git } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';
import { initRepository } from './init-repository.js';
import { runWorkflow } from './workflow-runner.js';

/** The photo account of this service fails every publish. */
const fixture = demoFixture();
fixture.projects[0]!.accounts![0]!.publishBehavior = 'fail';
const emulator = useEmulator({ fixture });
const NOW = new Date('2026-11-21T12:00:00Z');
const LAUNCH_POST = '---\nscheduledAt: 2027-01-05 09:00\ntargets: [photo]\nmedia: [media/welcome.png]\n---\nWe launch in January.\n';

describe('a post that fails to publish', () => {
  it('fails the apply job after the state is handed on (and recorded), and the job summary says which post and why', async () => {
    await emulator().reset();
    const { remote, editor } = await initRepository({ now: NOW });
    await mkdir(join(editor, 'posts/2027-01'), { recursive: true });
    await writeFile(join(editor, 'posts/2027-01/launch.md'), LAUNCH_POST);
    await git(editor, 'add', '.');
    await git(editor, 'commit', '-q', '-m', 'Schedule the launch');
    await git(editor, 'push', '-q', 'origin', 'HEAD:main');
    // The launch comes due (and fails) while the job records the state.
    const due = async (step: string) => void (step === 'Check for problems' && (await emulator().advanceClock(120 * 24 * 3600)));
    const runs = await runWorkflow(join(editor, '.github/workflows/postsync-apply.yml'), {
      workspace: await testdir(),
      remote,
      actionRef: ACTION_REF,
      secrets: { POSTSYNC_API_URL: emulator().baseUrl, POSTSYNC_API_KEY: DEMO_API_KEY },
      github: { sha: await git(editor, 'rev-parse', 'HEAD') },
      beforeStep: due,
    });
    const job = runs.find((run) => run.job === 'apply')!.result!;
    expect(job.status).toBe('failure');
    expect(job.steps.map((step) => `${step.name}: ${step.status}`).slice(-4)).toEqual(['Apply: success', 'Hand on the state: success', 'Upload the state: success', 'Check for problems: failure']);
    // The state was handed on first, and the record job records it though this job failed.
    expect(runs.find((run) => run.job === 'record')!.result!.status).toBe('success');
    expect(await git(remote, 'log', '-1', '--format=%s', 'main')).toBe('postsync: record applied posts [skip ci]');
    const check = job.steps.at(-1)!;
    expect(check.summary).toContain('**❌ 1 managed post failed to publish or cannot be published.**');
    expect(check.summary).toMatch(/\| ❌ \| `posts\/2027-01\/launch\.md` \| `2027-01\/launch` \| failed \| .*publishing failed/);
  }, 120_000);
});
