import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { testdir } from '../helpers/testdir.js';

/** `postsync init` in a folder that is already an npm package, or not; and the post it writes first. */

const withPostsync = JSON.stringify({ name: 'our-calendar', private: true, devDependencies: { postsync: '^0.1.0' } });
const withoutPostsync = JSON.stringify({ name: 'our-site', private: true, dependencies: { astro: '^5.0.0' } });

async function init(files: Record<string, string>) {
  const dir = await testdir(files);
  const result = await runCli(['init'], { cwd: dir });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return { dir, stdout: result.stdout, gitignore: await readFile(join(dir, '.gitignore'), 'utf8') };
}

describe('postsync init and package.json', () => {
  it('with postsync as a dependency: ignores node_modules/ and the hints say `npx postsync`', async () => {
    const { stdout, gitignore } = await init({ 'package.json': withPostsync });
    expect(gitignore.split('\n')).toContain('node_modules/');
    expect(stdout).toContain('Next:\n  npx postsync plan ');
    expect(stdout).toContain('\n  npx postsync apply --yes ');
    expect(stdout).not.toMatch(/^ {2}postsync /m);
  });

  it('with a package.json that does not name postsync: ignores node_modules/, the hints say `postsync`', async () => {
    const { stdout, gitignore } = await init({ 'package.json': withoutPostsync });
    expect(gitignore.split('\n')).toContain('node_modules/');
    expect(stdout).toContain('Next:\n  postsync plan ');
  });

  it('without a package.json: no node_modules/ line, the hints say `postsync`', async () => {
    const { stdout, gitignore } = await init({});
    expect(gitignore.split('\n')).not.toContain('node_modules/');
    expect(stdout).toContain('Next:\n  postsync plan ');
  });

  it('does not add node_modules/ twice to a .gitignore that has it', async () => {
    const { gitignore } = await init({ 'package.json': withPostsync, '.gitignore': 'node_modules/\n' });
    expect(gitignore.split('\n').filter((line) => line === 'node_modules/')).toHaveLength(1);
  });
});

describe('the welcome post', () => {
  it('has one line per paragraph, so the published text has no line break mid-sentence', async () => {
    const { dir, stdout } = await init({});
    const file = /(posts\/\d{4}-\d{2}\/welcome\.md)/.exec(stdout)![1]!;
    const body = (await readFile(join(dir, file), 'utf8')).split('\n---\n')[1]!;
    expect(body.trim()).not.toBe('');
    for (const paragraph of body.trim().split(/\n\s*\n/)) expect(paragraph).not.toContain('\n');
  });
});
