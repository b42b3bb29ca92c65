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
 * request never pushes, and no step that hands git the token also runs a command with the API key.
 */
describe('attack: the workflows hand the token and the API key to different steps', () => {
  it('the pull request plan never pushes and never writes the repository (held)', () => {
    const workflow = parse(PLAN_WORKFLOW) as Workflow;
    for (const job of Object.values(workflow.jobs)) expect(job.permissions?.contents).toBe('read');
    for (const { step } of steps(PLAN_WORKFLOW)) expect(step.run ?? '').not.toMatch(/\bgit push\b|state push|move-home/);
  });

  it('no step of the pull request plan, the health check or the apply workflow holds both the token and the API key (held)', () => {
    for (const text of [PLAN_WORKFLOW, HEALTH_WORKFLOW, APPLY_WORKFLOW]) {
      const both = steps(text).filter(({ step }) => holdsToken(step) && holdsKey(step));
      expect(both.map(({ job, step }) => `${job}: ${step.name}`)).toEqual([]);
    }
  });

  it('only the record job may push, and it holds no API key; the jobs that hold one only read the repository (held)', () => {
    const workflow = parse(APPLY_WORKFLOW) as Workflow;
    const writers = Object.entries(workflow.jobs).filter(([, job]) => job.permissions?.contents === 'write').map(([id]) => id);
    expect(writers).toEqual(['record']);
    expect(steps(APPLY_WORKFLOW).filter(({ job, step }) => job === 'record' && holdsKey(step))).toEqual([]);
    expect(steps(APPLY_WORKFLOW).filter(({ step }) => /\bgit push\b|state push/.test(step.run ?? ''))).toEqual([]);
    const read = steps(APPLY_WORKFLOW).find(({ step }) => step.name === 'Read the state')!.step;
    expect(holdsKey(read)).toBe(false);
    const handOff = steps(APPLY_WORKFLOW).find(({ step }) => step.name === 'Hand on the state')!.step;
    expect(holdsKey(handOff) || holdsToken(handOff)).toBe(false);
  });
});
