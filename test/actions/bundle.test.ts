import { execFile } from 'node:child_process';
import { cp, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliEnv } from '../helpers/cli.js';
import { testdir } from '../helpers/testdir.js';
import { REPO_ROOT } from './workflow-runner.js';

/** The modules a file of the build holds, from the `// <module path>` line where each starts. */
async function modulesOf(file: string): Promise<string[]> {
  const text = await readFile(join(REPO_ROOT, 'dist/action', file), 'utf8');
  // The file's header lines have spaces; a module's path has none.
  return [...text.matchAll(/^\/\/ (\S+)$/gm)].map((match) => match[1]!);
}

/** action/: the self-contained build the GitHub Action runs, committed. */
describe('the action bundle', () => {
  it('is committed up to date with the code (`npm run bundle:action` refreshes it)', async () => {
    const [committed, fresh] = await Promise.all([readdir(join(REPO_ROOT, 'action')), readdir(join(REPO_ROOT, 'dist/action'))]);
    expect(committed.sort()).toEqual(fresh.sort());
    for (const file of fresh) {
      const [was, is] = await Promise.all([readFile(join(REPO_ROOT, 'action', file), 'utf8'), readFile(join(REPO_ROOT, 'dist/action', file), 'utf8')]);
      // Not toBe: a megabyte diff would bury the message.
      expect(was === is, `action/${file} is out of date: run \`npm run bundle:action\` and commit it`).toBe(true);
    }
  });

  it("keeps postsync's own code, its generated validators and the third-party packages in files apart", async () => {
    expect((await readdir(join(REPO_ROOT, 'dist/action'))).sort()).toEqual(['parse-worker.mjs', 'postsync-code.mjs', 'postsync-generated.mjs', 'postsync.mjs', 'rolldown-runtime.mjs', 'third-party.mjs']);
    const own = await modulesOf('postsync-code.mjs');
    expect(own.length).toBeGreaterThan(100);
    expect(own.filter((path) => !/^dist\/(src|\.tsc-cli|schemas)\//.test(path) || path.startsWith('dist/src/generated/'))).toEqual([]);
    expect((await modulesOf('postsync-generated.mjs')).sort()).toEqual(['dist/src/generated/calendar-client.js', 'dist/src/generated/content-validators.js', 'dist/src/generated/file-validators.js']);
    const thirdParty = await modulesOf('third-party.mjs');
    expect(thirdParty.filter((path) => !path.startsWith('node_modules/') && !path.startsWith('\\0'))).toEqual([]);
    // esprima is left out (scripts/bundle-options.mjs says why): js-yaml finds it missing.
    expect(thirdParty.filter((path) => path.includes('esprima/'))).toEqual([]);
    // Not minified: a reviewer reads lines of code.
    const code = await readFile(join(REPO_ROOT, 'dist/action/postsync-code.mjs'), 'utf8');
    expect(Math.max(...code.split('\n').map((line) => line.length))).toBeLessThan(2000);
  });

  it('runs with no node_modules anywhere: only Node.js and the action checkout', async () => {
    // An action checkout as GitHub downloads it: the repository's files, no installed packages.
    const checkout = await testdir();
    await cp(join(REPO_ROOT, 'dist/action'), join(checkout, 'action'), { recursive: true });
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
