import { appendFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { demoProject, post } from '../e2e/project.js';

/** `prune: true` in postsync.yaml: a calendar whose workflows delete the posts of removed files. */

const emulator = useEmulator();
const env = { POSTSYNC_API_KEY: DEMO_API_KEY };
const TIMEOUT_MS = 120_000;

function cli(dir: string, args: string[]) {
  return runCli(['--api-url', emulator().baseUrl, ...args], { cwd: dir, env });
}

/** A scheduled post on `day` of next June, a text of its own: the tests share one emulator. */
const launch = (day: number) => post({ body: `Launch day ${day}!`, scheduledAt: `${new Date().getUTCFullYear() + 1}-06-0${day} 09:00` });

/** A calendar with `prune: true` whose scheduled post was applied, then its file removed. */
async function removedAfterApply(day: number): Promise<string> {
  const dir = await demoProject({ 'launch.md': launch(day), 'stays.md': post({ body: `Still here on day ${day}.` }) });
  await appendFile(join(dir, 'postsync.yaml'), 'prune: true\n');
  const applied = await cli(dir, ['apply', '--yes']);
  expect(applied.code, applied.stdout + applied.stderr).toBe(0);
  await rm(join(dir, 'posts/launch.md'));
  return dir;
}

describe('prune: true in postsync.yaml', () => {
  it('plan and apply delete a removed file\'s post as with --prune, and say where that comes from', async () => {
    const dir = await removedAfterApply(1);
    const plan = await cli(dir, ['plan']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('prune: on, from postsync.yaml');
    expect(plan.stdout).toContain('Plan: 0 to create, 0 to update, 1 to delete.');
    const markdown = await cli(dir, ['plan', '--markdown']);
    expect(markdown.stdout).toContain('prune: on, from postsync.yaml');

    const applied = await cli(dir, ['apply', '--yes']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('prune: on, from postsync.yaml');
    expect(applied.stdout).toContain('Apply complete: 0 created, 0 updated, 1 deleted');
  }, TIMEOUT_MS);

  it('--no-prune overrides it: the post goes back to draft', async () => {
    const dir = await removedAfterApply(2);
    const plan = await cli(dir, ['plan', '--no-prune']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('prune: off, --no-prune overrides postsync.yaml');
    expect(plan.stdout).toContain('0 to delete, 1 to unschedule.');
    const applied = await cli(dir, ['apply', '--yes', '--no-prune']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('0 deleted');
  }, TIMEOUT_MS);

  it('without the setting nothing changes: no prune line, the post goes back to draft', async () => {
    const dir = await demoProject({ 'launch.md': launch(3) });
    expect((await cli(dir, ['apply', '--yes'])).code).toBe(0);
    await rm(join(dir, 'posts/launch.md'));
    const plan = await cli(dir, ['plan']);
    expect(plan.stdout).not.toContain('prune:');
    expect(plan.stdout).toContain('1 to unschedule.');
    const pruned = await cli(dir, ['plan', '--prune']);
    expect(pruned.stdout).toContain('prune: on, from --prune');
    expect(pruned.stdout).toContain('1 to delete.');
  }, TIMEOUT_MS);

  it('is refused when it is not true or false', async () => {
    const dir = await demoProject({});
    await appendFile(join(dir, 'postsync.yaml'), 'prune: yes please\n');
    const plan = await cli(dir, ['plan']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('prune');
  }, TIMEOUT_MS);
});
