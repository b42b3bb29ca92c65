import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import actionSchema from '../../schemas/github-action.schema.json' with { type: 'json' };
import workflowSchema from '../../schemas/github-workflow.schema.json' with { type: 'json' };

const REPO_ROOT = new URL('../..', import.meta.url).pathname;
const ajv = new Ajv({ allErrors: true, strict: false });
const checkWorkflow = ajv.compile(workflowSchema);
const checkAction = ajv.compile(actionSchema);

async function yamlFile(path: string): Promise<unknown> {
  return parse(await readFile(`${REPO_ROOT}${path}`, 'utf8'));
}

function problems(check: typeof checkWorkflow, value: unknown): string[] {
  return check(value) ? [] : (check.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

describe('GitHub workflow and action schemas', () => {
  it.each(['examples/workflows/postsync-plan.yml', 'examples/workflows/postsync-apply.yml', 'examples/workflows/postsync-health.yml'])('%s is a valid workflow', async (file) => {
    expect(problems(checkWorkflow, await yamlFile(file))).toEqual([]);
  });

  it('action.yml is valid action metadata', async () => {
    expect(problems(checkAction, await yamlFile('action.yml'))).toEqual([]);
  });

  it('the apply workflow takes turns run by run (none cancelled), checks out the branch head, and only its record job may push', async () => {
    const workflow = (await yamlFile('examples/workflows/postsync-apply.yml')) as { permissions: unknown; concurrency: unknown; on: { push: { branches: string[] } }; jobs: Record<string, any> };
    expect(workflow.concurrency).toEqual({ group: 'postsync-apply-${{ github.ref }}', 'cancel-in-progress': false, queue: 'max' });
    expect(workflow.jobs.apply.concurrency).toBeUndefined();
    expect(workflow.jobs.apply.steps.find((step: { name?: string }) => step.name === 'Check out the content')).toMatchObject({ uses: expect.stringMatching(/^actions\/checkout@[0-9a-f]{40}$/), with: { ref: '${{ github.ref_name }}', 'persist-credentials': false } });
    expect(workflow.jobs.record.steps[0]).toMatchObject({ uses: expect.stringMatching(/^actions\/checkout@[0-9a-f]{40}$/), with: { ref: '${{ github.ref_name }}', 'persist-credentials': false } });
    expect(workflow.permissions).toEqual({});
    expect(workflow.jobs.apply.permissions).toEqual({ contents: 'read' });
    expect(workflow.jobs.record.permissions).toEqual({ contents: 'write' });
    expect(workflow.jobs.record.needs).toEqual(['calendars', 'apply']);
    expect(workflow.jobs.record.if).toMatch(/^\$\{\{ always\(\) && /);
    expect(workflow.on.push.branches).toEqual(['main']);
  });

  it('the health workflow runs on a schedule and may write issues', async () => {
    const workflow = (await yamlFile('examples/workflows/postsync-health.yml')) as { permissions: unknown; on: { schedule: { cron: string }[] }; jobs: Record<string, { permissions: unknown }> };
    expect(workflow.on.schedule).toHaveLength(1);
    expect(workflow.permissions).toEqual({});
    expect(workflow.jobs.health!.permissions).toEqual({ contents: 'read', issues: 'write' });
  });

  it('refuses the mistakes it exists to catch', async () => {
    const valid = (await yamlFile('examples/workflows/postsync-apply.yml')) as Record<string, any>;
    const broken = (change: (workflow: Record<string, any>) => void) => {
      const copy = structuredClone(valid);
      change(copy);
      return problems(checkWorkflow, copy);
    };
    expect(broken((w) => (w.jobs.apply.concurrency = { grup: 'postsync-apply' }))).not.toEqual([]);
    expect(broken((w) => (w.concurrency.queue = 'all'))).not.toEqual([]);
    expect(broken((w) => (w.permissions = { contents: 'writ' }))).not.toEqual([]);
    expect(broken((w) => (w.on = { pushh: null }))).not.toEqual([]);
    expect(broken((w) => (w.jobs.apply['runs_on'] = w.jobs.apply['runs-on']))).not.toEqual([]);
    const stepNamed = (w: Record<string, any>, name: string) => w.jobs.apply.steps.find((step: { name?: string }) => step.name === name);
    expect(broken((w) => (stepNamed(w, 'Set up postsync').run = 'echo both'))).not.toEqual([]);
    expect(broken((w) => delete w.jobs.apply['runs-on'])).not.toEqual([]);
    expect(broken((w) => (stepNamed(w, 'Read the state').with = { x: '1' }))).not.toEqual([]);

    const action = (await yamlFile('action.yml')) as Record<string, any>;
    const actionCopy = structuredClone(action);
    delete actionCopy.runs.steps[1].shell;
    expect(problems(checkAction, actionCopy)).not.toEqual([]);
  });
});
