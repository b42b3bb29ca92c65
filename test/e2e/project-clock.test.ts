import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { demoProject, post } from './project.js';

const emulator = useEmulator();

// The project's clock is Europe/Berlin (+01:00 in December): people read its times, machines UTC.
const NOON = 'Wed 4 Dec 2030, 12:00 (+01:00)';
const HALF_PAST_ONE = 'Wed 4 Dec 2030, 13:30 (+01:00)';

describe("times people read are on the project's clock", () => {
  it('a post moved from 12:00 to 13:30 Berlin: the plan and its Markdown say so in Berlin, --json in UTC', async () => {
    const api = emulator();
    const env = { POSTSYNC_API_KEY: DEMO_API_KEY };
    const dir = await demoProject({ 'launch.md': post({ body: 'Launch.', scheduledAt: '2030-12-04 12:00' }) });
    const cli = (args: string[], extraEnv: Record<string, string> = {}) => runCli(['--api-url', api.baseUrl, ...args], { cwd: dir, env: { ...env, ...extraEnv } });
    expect((await cli(['apply', '--yes'])).code).toBe(0);
    await writeFile(join(dir, 'posts/launch.md'), post({ body: 'Launch.', scheduledAt: '2030-12-04 13:30' }));

    const human = await cli(['plan']);
    expect(human.stdout).toContain(`scheduledAt: ${NOON} → ${HALF_PAST_ONE}`);
    expect(human.stdout).not.toContain('2030-12-04T');

    const json = JSON.parse((await cli(['plan', '--json'])).stdout) as { changes: { fields?: { field: string; before: unknown; after: unknown }[] }[] };
    const field = json.changes.flatMap((change) => change.fields ?? []).find((f) => f.field === 'scheduledAt');
    expect(field).toEqual({ field: 'scheduledAt', before: '2030-12-04T11:00:00.000Z', after: '2030-12-04T12:30:00.000Z' });

    const summary = join(dir, 'summary.md');
    await writeFile(summary, '');
    const actions = await cli(['plan'], { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir, GITHUB_STEP_SUMMARY: summary });
    expect(actions.code).toBe(0);
    const markdown = await readFile(summary, 'utf8');
    expect(markdown).toContain(`${NOON} → ${HALF_PAST_ONE}`);
    expect(markdown).not.toContain('2030-12-04T');
  });

  it('a post scheduled in the past: the message names its time in Berlin, and the time it had to be after', async () => {
    const api = emulator();
    const dir = await demoProject({ 'late.md': post({ body: 'Late.', scheduledAt: '2020-01-01 12:00' }) });
    const result = await runCli(['--api-url', api.baseUrl, 'plan'], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
    expect(result.stdout).toContain('Wed 1 Jan 2020, 12:00 (+01:00)');
    expect(result.stdout).toMatch(/expected: a time after \w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2}(:\d{2})? \(\+0[12]:00\)/);
    expect(result.stdout).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  });
});
