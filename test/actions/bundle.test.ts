import { execFile } from 'node:child_process';
import { cp, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliEnv } from '../helpers/cli.js';
import { testdir } from '../helpers/testdir.js';
import { REPO_ROOT } from './workflow-runner.js';

/** action/postsync.mjs: the self-contained build the GitHub Action runs, committed. */
describe('the action bundle', () => {
  it('is committed up to date with the code (`npm run bundle:action` refreshes it)', async () => {
    const [committed, fresh] = await Promise.all([readFile(join(REPO_ROOT, 'action/postsync.mjs'), 'utf8'), readFile(join(REPO_ROOT, 'dist/action/postsync.mjs'), 'utf8')]);
    // Not toBe: a 2.5 MB diff would bury the message.
    expect(committed === fresh, 'action/postsync.mjs is out of date: run `npm run bundle:action` and commit it').toBe(true);
  });

  it('runs with no node_modules anywhere: only Node.js and the action checkout', async () => {
    // An action checkout as GitHub downloads it: the repository's files, no installed packages.
    const checkout = await testdir();
    await mkdir(join(checkout, 'action'));
    await cp(join(REPO_ROOT, 'dist/action/postsync.mjs'), join(checkout, 'action/postsync.mjs'));
    await cp(join(REPO_ROOT, 'package.json'), join(checkout, 'package.json'));
    await cp(join(REPO_ROOT, 'action.yml'), join(checkout, 'action.yml'));
    await cp(join(REPO_ROOT, 'schemas'), join(checkout, 'schemas'), { recursive: true });
    const project = await testdir();
    const run = (...args: string[]) => promisify(execFile)(process.execPath, [join(checkout, 'action/postsync.mjs'), ...args], { cwd: project, env: cliEnv() });
    const { version } = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect((await run('--version')).stdout.trim()).toBe(version);
    await run('init');
    const plan = await run('plan', '--local', '--detailed-exitcode').then(
      () => null,
      (error: { code: number; stdout: string }) => error,
    );
    expect(plan?.code).toBe(2);
    expect(plan?.stdout).toContain('Plan: 1 to create, 0 to update, 0 to delete.');
    expect((await run('apply', '--local', '--yes')).stdout).toContain('Apply complete: 1 created');
  });
});
