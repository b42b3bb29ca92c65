import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER, commentMarker } from '../../src/actions/calendar-report.js';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { initProject } from '../../src/init/init-project.js';
import { calendarAt } from '../../src/config/find-calendars.js';
import { ACTION_REF } from '../../src/init/workflow-steps.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { useGitHubStandIn } from './github-comments-stand-in.js';
import { runWorkflowJob, type JobResult, type StepResult } from './workflow-runner.js';

const emulator = useEmulator();
const TOKEN = 'ghs_standin_token_4b1d';
const github = useGitHubStandIn({ token: TOKEN, readOnlyToken: 'ghs_fork_token', repository: 'northwind/content' });
const NOW = new Date('2026-11-21T12:00:00Z');
const post = (when: string | null, text: string) => `---\n${when === null ? '' : `scheduledAt: ${when}\n`}targets: [photo]\nmedia: [media/welcome.png]\n---\n${text}\n`;

function step(job: JobResult, name: string): StepResult {
  const found = job.steps.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no step ${name}: ${job.steps.map((s) => s.name).join(', ')}`);
  return found;
}

/** The plan workflow `init` writes, run on pull request `number` against the emulator and the GitHub stand-in, for the calendar in `folder`. */
async function runPlanWorkflow(workspace: string, number: number, token = TOKEN, folder = '.'): Promise<JobResult> {
  const event = join(workspace, '..', `event-${number}.json`);
  await writeFile(event, JSON.stringify({ pull_request: { number } }));
  return runWorkflowJob(join(workspace, '.github/workflows/postsync-plan.yml'), 'plan', {
    workspace,
    actionRef: ACTION_REF,
    secrets: { POSTSYNC_API_URL: emulator().baseUrl, POSTSYNC_API_READ_KEY: DEMO_API_KEY },
    // The job of one calendar (the repository root's by default), as the calendars job lists it.
    matrix: { calendar: { ...calendarAt(folder), apiUrlSecret: 'POSTSYNC_API_URL', apiKeySecret: 'POSTSYNC_API_KEY', readKeySecret: 'POSTSYNC_API_READ_KEY' } },
    github: { token, event: { pull_request: { number } } },
    runnerEnv: { GITHUB_API_URL: github().url, GITHUB_REPOSITORY: 'northwind/content', GITHUB_EVENT_PATH: event, GITHUB_SERVER_URL: 'https://github.example', GITHUB_RUN_ID: '42' },
  });
}

async function project(): Promise<string> {
  const root = await testdir();
  const workspace = join(root, 'repo');
  await initProject({ dir: workspace, now: NOW, timezone: 'Europe/Berlin' });
  await mkdir(join(workspace, 'posts/2027-01'), { recursive: true });
  await writeFile(join(workspace, 'posts/2027-01/launch.md'), post('2027-01-05 09:00', 'We launch in January.'));
  await writeFile(join(workspace, 'posts/2027-01/recap.md'), post('2027-01-29 17:00', 'January recap.'));
  return workspace;
}

const commentsOn = (number: number) => github().comments.filter((comment) => comment.issue === number && comment.body.startsWith(String(COMMENT_MARKER)));

describe('the plan workflow: calendar diff, page artifact and pull-request comment', () => {
  it('adds the calendar diff to the job summary, uploads the page and keeps one comment up to date', async () => {
    const workspace = await project();
    github().addComment(7, 'Looks good to me');

    let job = await runPlanWorkflow(workspace, 7);
    expect(job.steps.map((s) => `${s.name}: ${s.status}`)).toEqual(['Check for the secrets: success', 'Check out the content: provided', 'Set up Node.js: provided', 'Set up postsync: success', 'Read the state: success', 'Plan: success', 'Calendar: success', 'Upload the calendar page: success']);
    const calendar = step(job, 'Calendar');
    expect(calendar.summary).toContain('### postsync calendar');
    expect(calendar.summary).toContain('**2 weeks touched:** 3 new · times in Europe/Berlin');
    expect(calendar.summary).toContain('#### 2027-W01: Mon 4 Jan 2027 – Sun 10 Jan 2027');
    expect(calendar.summary).toContain('| ➕ new | Tue 5 Jan 2027, 09:00 (+01:00) | `2027-01/launch` | photo | We launch in January. |');
    expect(calendar.stderr).toContain('Pull-request comment: created.');
    expect(step(job, 'Upload the calendar page').artifact).toEqual({ name: 'postsync-calendar', files: ['postsync-calendar/index.html', expect.stringMatching(/^postsync-calendar\/media\/[0-9a-f]{20}\.png$/)] });
    expect(commentsOn(7)).toHaveLength(1);
    const [comment] = commentsOn(7);
    expect(comment!.body).toContain('| ➕ new | Fri 29 Jan 2027, 17:00 (+01:00) | `2027-01/recap` | photo | January recap. |');
    expect(comment!.body).toContain('[this run](https://github.example/northwind/content/actions/runs/42)');
    expect(comment!.body).not.toContain('[!CAUTION]');

    // Merged and applied; then a pull request unschedules one post and removes the other's file.
    expect((await runCli(['-C', workspace, '--api-url', emulator().baseUrl, 'apply', '--yes'], { cwd: workspace, env: { POSTSYNC_API_KEY: DEMO_API_KEY } })).code).toBe(0);
    await writeFile(join(workspace, 'posts/2027-01/launch.md'), post(null, 'We launch in January.'));
    await rm(join(workspace, 'posts/2027-01/recap.md'));
    job = await runPlanWorkflow(workspace, 7);
    expect(job.status).toBe('success');
    expect(step(job, 'Calendar').stderr).toContain('Pull-request comment: updated.');
    expect(commentsOn(7)).toHaveLength(1);
    expect(commentsOn(7)[0]!.id).toBe(comment!.id);
    expect(commentsOn(7)[0]!.body).toContain('> [!CAUTION]\n> **2 posts would be unscheduled** (`2027-01/launch`, `2027-01/recap`).');
    expect(commentsOn(7)[0]!.body).toContain('| ➖ unscheduled | ~~Tue 5 Jan 2027, 09:00 (+01:00)~~ → no time | `2027-01/launch` |');
    const writes = () => github().requests.filter((request) => request.method !== 'GET').length;
    const before = writes();

    // The same plan again: the comment already says it.
    job = await runPlanWorkflow(workspace, 7);
    expect(step(job, 'Calendar').stderr).toContain('Pull-request comment: unchanged.');
    expect(writes()).toBe(before);
    expect(github().comments.filter((c) => c.issue === 7)).toHaveLength(2);
  });

  it('keeps one comment per calendar when the repository holds several', async () => {
    const workspace = await project();
    // Texts of its own: the emulator is shared, and a post the other tests created would be adopted rather than shown as new.
    await writeFile(join(workspace, 'posts/2027-01/launch.md'), post('2027-01-06 09:00', 'Brand A launches.'));
    const second = join(workspace, 'brand-b');
    await initProject({ dir: second, now: NOW, timezone: 'Europe/Berlin' });
    await mkdir(join(second, 'posts'), { recursive: true });
    await writeFile(join(second, 'posts/teaser.md'), post('2027-02-02 10:00', 'A teaser for brand B.'));

    for (const folder of ['.', 'brand-b', '.']) expect((await runPlanWorkflow(workspace, 11, TOKEN, folder)).status).toBe('success');
    const comments = github().comments.filter((comment) => comment.issue === 11);
    expect(comments.map((comment) => comment.body.split('\n')[0])).toEqual([String(COMMENT_MARKER), String(commentMarker('brand-b'))]);
    expect(comments[0]!.body).toContain('### postsync calendar\n');
    expect(comments[0]!.body).toContain('`2027-01/launch`');
    expect(comments[0]!.body).not.toContain('teaser');
    expect(comments[1]!.body).toContain('### postsync calendar · `brand-b`');
    expect(comments[1]!.body).toContain('`teaser`');
    expect(comments[1]!.body).not.toContain('launch');
  });

  it('makes no comment on a pull request that changes no post, and warns when the token may not write', async () => {
    const workspace = await project();
    expect((await runCli(['-C', workspace, '--api-url', emulator().baseUrl, 'apply', '--yes'], { cwd: workspace, env: { POSTSYNC_API_KEY: DEMO_API_KEY } })).code).toBe(0);
    let job = await runPlanWorkflow(workspace, 8);
    expect(job.status).toBe('success');
    expect(step(job, 'Calendar').summary).toContain('No posts change on the calendar.');
    expect(step(job, 'Calendar').stderr).toContain('Pull-request comment: none (no post changes).');
    expect(github().comments.filter((c) => c.issue === 8)).toEqual([]);

    await writeFile(join(workspace, 'posts/2027-01/extra.md'), post('2027-01-12 10:00', 'One more.'));
    job = await runPlanWorkflow(workspace, 9, 'ghs_fork_token');
    expect(job.status).toBe('success');
    expect(step(job, 'Calendar').commands).toEqual([expect.stringMatching(/^::warning title=postsync calendar::Could not write the pull-request comment: GitHub answered 403 to POST \/repos\/northwind\/content\/issues\/9\/comments: Resource not accessible by integration\./)]);
    expect(step(job, 'Calendar').summary).toContain('`2027-01/extra`');
  });
});
