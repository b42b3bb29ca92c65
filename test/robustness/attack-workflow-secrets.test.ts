import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { APPLY_WORKFLOW, HEALTH_WORKFLOW, PLAN_WORKFLOW } from '../../src/init/workflows.js';

interface Step {
  name?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  run?: string;
}
interface Workflow {
  jobs: Record<string, { permissions?: Record<string, string>; steps?: Step[] }>;
}

const steps = (text: string) => Object.entries((parse(text) as Workflow).jobs).flatMap(([job, { steps = [] }]) => steps.map((step) => ({ job, step })));
const holdsToken = (step: Step) => step.env?.GITHUB_TOKEN !== undefined;
const holdsKey = (step: Step) => step.env?.POSTSYNC_API_KEY !== undefined || step.with?.['api-key'] !== undefined;

/**
 * What a pull request's files can reach in the workflows `init` writes: the plan job of a pull
 * request never pushes, and no step that hands git the token also runs a command with the API key
 * but the apply job's state commit of the committed file (its rebase loop applies again).
 */
describe('attack: the workflows hand the token and the API key to different steps', () => {
  it('the pull request plan never pushes and never writes the repository (held)', () => {
    const workflow = parse(PLAN_WORKFLOW) as Workflow;
    for (const job of Object.values(workflow.jobs)) expect(job.permissions?.contents).toBe('read');
    for (const { step } of steps(PLAN_WORKFLOW)) expect(step.run ?? '').not.toMatch(/\bgit push\b|state push|move-home/);
  });

  it('no step of the pull request plan or the health check holds both the token and the API key (held)', () => {
    for (const text of [PLAN_WORKFLOW, HEALTH_WORKFLOW]) {
      const both = steps(text).filter(({ step }) => holdsToken(step) && holdsKey(step));
      expect(both.map(({ job, step }) => `${job}: ${step.name}`)).toEqual([]);
    }
  });

  it('the apply job\'s state push of a branch home runs without the API key in its environment (held)', () => {
    const commit = steps(APPLY_WORKFLOW).find(({ step }) => step.name === 'Commit the state file')!.step;
    expect(commit.run).toContain('with_token env -u POSTSYNC_API_KEY -u POSTSYNC_API_URL postsync state push --merge');
    const read = steps(APPLY_WORKFLOW).find(({ step }) => step.name === 'Read the state')!.step;
    expect(holdsKey(read)).toBe(false);
  });
});
