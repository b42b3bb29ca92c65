import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { WORKFLOW_FILES } from '../../src/init/workflows.js';
import { vendoredActionFiles } from '../../src/init/vendored-action.js';
import { ACTION_REF } from '../../src/init/workflow-steps.js';
import { git } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';
import { runWorkflowJob } from './workflow-runner.js';

/** The first job of the plan and apply workflows: which calendars a change touched. */

const CONFIG = 'timezone: UTC\n';
const POST = '---\ntargets: []\n---\nHello\n';

/** A repository with two calendars, then a commit that adds one post with a Japanese name to acme. */
async function pushed(): Promise<{ editor: string; remote: string; before: string; after: string }> {
  const remote = await testdir();
  await git(remote, 'init', '-q', '--bare', '--initial-branch=main', '.');
  const editor = await testdir({ 'clients/acme/postsync.yaml': CONFIG, 'clients/bolt/postsync.yaml': CONFIG, 'clients/bolt/posts/hello.md': POST });
  await git(editor, 'init', '-q', '--initial-branch=main', '.');
  for (const [file, text] of Object.entries({ ...WORKFLOW_FILES, ...(await vendoredActionFiles()) })) {
    await mkdir(join(editor, file, '..'), { recursive: true });
    await writeFile(join(editor, file), text);
  }
  await git(editor, 'add', '.');
  await git(editor, 'commit', '-q', '-m', 'Two calendars');
  const before = await git(editor, 'rev-parse', 'HEAD');
  await mkdir(join(editor, 'clients/acme/posts'), { recursive: true });
  await writeFile(join(editor, 'clients/acme/posts/東京の朝.md'), POST);
  await git(editor, 'add', '.');
  await git(editor, 'commit', '-q', '-m', 'A post with a Japanese name');
  await git(editor, 'push', '-q', remote, 'HEAD:main');
  return { editor, remote, before, after: await git(editor, 'rev-parse', 'HEAD') };
}

const folders = (outputs: Record<string, string>) => (JSON.parse(outputs.calendars ?? '[]') as { folder: string }[]).map((calendar) => calendar.folder);

describe('the calendars job', () => {
  it('finds the calendar of a post with a Japanese file name, in the plan and the apply workflow', async () => {
    const { editor, remote, before, after } = await pushed();
    for (const name of ['postsync-plan.yml', 'postsync-apply.yml']) {
      const workflow = join(editor, `.github/workflows/${name}`);
      const job = await runWorkflowJob(workflow, 'calendars', { workspace: await testdir(), remote, actionRef: ACTION_REF, secrets: {}, github: { sha: after, event: { before } } });
      expect(job.status, name).toBe('success');
      expect(folders(job.outputs), name).toEqual(['clients/acme']);
      // Each calendar's page artifact is named after its folder (artifact names take no `/`).
      expect((JSON.parse(job.outputs.calendars!) as { artifactName: string }[])[0]!.artifactName).toBe('postsync-calendar-clients-acme');
    }
  }, 120_000);

  it('fetch two commits, never the whole history: the pushed or merge commit and the one to compare with', () => {
    for (const [file, text] of Object.entries(WORKFLOW_FILES)) expect(text, file).not.toMatch(/fetch-depth: 0/);
    const apply = parse(WORKFLOW_FILES['.github/workflows/postsync-apply.yml']!) as { jobs: { calendars: { steps: { name: string; run?: string; with?: Record<string, unknown> }[] } } };
    const steps = apply.jobs.calendars.steps;
    expect(steps.find((step) => step.name === 'Check out the content')!.with!['fetch-depth']).toBeUndefined();
    expect(steps.find((step) => step.name === 'Find the calendars')!.run).toContain('with_token git fetch -q --no-tags --depth=1 origin "$BEFORE"');
  });

  it('start on a change to any file and leave the choice to `calendars --changed` (custom content and snippets folders, postsync.yml)', () => {
    const plan = parse(WORKFLOW_FILES['.github/workflows/postsync-plan.yml']!) as { on: { pull_request: Record<string, unknown> | null } };
    const apply = parse(WORKFLOW_FILES['.github/workflows/postsync-apply.yml']!) as { on: { push: Record<string, unknown> } };
    expect(plan.on.pull_request?.paths).toBeUndefined();
    expect(Object.keys(plan.on)).toEqual(['pull_request']);
    expect(apply.on.push.paths).toBeUndefined();
    // A push of the state file alone (a merge of two branches' states) has nothing new to apply.
    expect(apply.on.push['paths-ignore']).toEqual(['**/.postsync/state.json']);
  });
});
