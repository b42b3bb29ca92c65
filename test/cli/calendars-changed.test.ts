import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calendarAt } from '../../src/config/find-calendars.js';
import { runCli } from '../helpers/cli.js';
import { git, gitEnv } from '../helpers/git.js';
import { testdir } from '../helpers/testdir.js';

/** `postsync calendars --changed`: which calendars a list of changed paths, as git writes it, touches. */

const JAPANESE_POST = 'clients/acme/posts/東京 "launch".md';

async function agency(extra: Record<string, string> = {}): Promise<string> {
  const dir = await testdir({
    'clients/acme/postsync.yaml': 'timezone: UTC\ncontent: calendar\nsnippets: parts\n',
    'clients/acme/calendar/hello.md': '---\ntargets: []\n---\nHello\n',
    'clients/bolt/postsync.yml': 'timezone: UTC\n',
    'clients/bolt/posts/hello.md': '---\ntargets: []\n---\nHello\n',
    'README.md': '# Our clients\n',
    ...extra,
  });
  await git(dir, 'init', '-q', '--initial-branch=main', '.');
  await git(dir, 'add', '.');
  await git(dir, 'commit', '-q', '-m', 'Two calendars');
  return dir;
}

async function changedBy(dir: string, file: string, diffArgs: string[]): Promise<string> {
  await writeFile(join(dir, file), '---\ntargets: []\n---\nNew\n');
  await git(dir, 'add', '.');
  await git(dir, 'commit', '-q', '-m', 'One more');
  // Not trimmed: with -z the list ends with a NUL.
  return (await promisify(execFile)('git', ['diff', ...diffArgs, 'HEAD^', 'HEAD'], { cwd: dir, env: gitEnv() })).stdout;
}

const touched = async (dir: string, input: string) => {
  const listed = await runCli(['calendars', '--changed', '-', '--json'], { cwd: dir, input });
  expect(listed.stderr).toBe('');
  expect(listed.code).toBe(0);
  return (JSON.parse(listed.stdout).calendars as { folder: string }[]).map((calendar) => calendar.folder);
};

describe('postsync calendars --changed', () => {
  it("reads git's quoted paths: a post with a Japanese name and quotes touches its calendar", async () => {
    const dir = await agency({ 'clients/acme/calendar/.keep': '' });
    const quoted = await changedBy(dir, JAPANESE_POST.replace('/posts/', '/calendar/'), ['--name-only']);
    // git's default output: the path in double quotes, its UTF-8 bytes as octal escapes.
    expect(quoted).toMatch(/^"clients\/acme\/calendar\/\\346\\235\\261\\344\\272\\254 \\"launch\\"\.md"\n$/);
    expect(await touched(dir, quoted)).toEqual(['clients/acme']);
  });

  it('reads the NUL-separated list of `git diff -z` and the unquoted one of core.quotePath=false', async () => {
    const dir = await agency();
    await writeFile(join(dir, 'README.md'), '# Our clients, and more\n');
    const nul = await changedBy(dir, 'clients/bolt/posts/東京\tnews.md', ['--name-only', '-z']);
    expect(nul).toBe('README.md\0clients/bolt/posts/東京\tnews.md\0');
    expect(await touched(dir, nul)).toEqual(['clients/bolt']);
    expect(await touched(dir, 'clients/acme/calendar/東京.md\n')).toEqual(['clients/acme']);
  });

  it("counts a change to a calendar's postsync.yml, custom content folder and snippets folder", async () => {
    const dir = await agency();
    expect(await touched(dir, 'clients/bolt/postsync.yml\n')).toEqual(['clients/bolt']);
    expect(await touched(dir, 'clients/acme/calendar/hello.md\n')).toEqual(['clients/acme']);
    expect(await touched(dir, 'clients/acme/parts/footer.md\n')).toEqual(['clients/acme']);
    expect(await touched(dir, 'README.md\n')).toEqual([]);
  });
});

describe('postsync calendars: secret names', () => {
  it('refuses folders that map to the same secret names, naming both and the name', async () => {
    const dir = await testdir({ 'clients/acme-eu/postsync.yaml': 'timezone: UTC\n', 'clients/acme_eu/postsync.yaml': 'timezone: UTC\n', 'clients/bolt/postsync.yaml': 'timezone: UTC\n' });
    const listed = await runCli(['calendars'], { cwd: dir });
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain('clients/acme-eu and clients/acme_eu');
    expect(listed.stderr).toContain('POSTSYNC_API_KEY_CLIENTS_ACME_EU');
    expect(listed.stdout).toBe('');
    const fine = await runCli(['calendars', '--json'], { cwd: await testdir({ 'a/postsync.yaml': 'timezone: UTC\n', 'b/postsync.yaml': 'timezone: UTC\n' }) });
    expect(JSON.parse(fine.stdout).calendars).toEqual([calendarAt('a'), calendarAt('b')]);
  });
});
