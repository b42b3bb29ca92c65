import { readFile, readdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { demoProject, post } from './project.js';

const emulator = useEmulator();

/** The CLI run in `dir` against the test emulator, as a user of that project runs it. */
const cliIn = (dir: string, baseUrl: string) => (...args: string[]) => runCli(['--api-url', baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });

describe('the main job, as a new user runs it', () => {
  it('plans, applies, edits, renames, prunes, schedules and unschedules, converging every time', async () => {
    const dir = await demoProject({
      'launch.md': post({ body: 'We launch on Monday.' }),
      '2026-12/teaser.md': post({ body: 'A first look.', targets: '[short]', media: '[media/teaser.mp4]' }),
    });
    const api = emulator();
    const cli = cliIn(dir, api.baseUrl);
    const writes = async () => (await api.requestLog()).filter((entry) => entry.method !== 'GET');
    const remotePosts = async () => (await api.api('GET', '/posts?limit=100')).body.data.items as { id: string; content: string; status: string }[];

    let result = await cli('plan');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(`Target: ${api.baseUrl} (project demo)`);
    expect(result.stdout).toContain('+ create  2026-12/teaser');
    expect(result.stdout).toContain('Plan: 2 to create, 0 to update, 0 to delete.');

    result = await cli('apply', '--yes');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Apply complete: 2 created');
    expect(await remotePosts()).toHaveLength(2);

    expect((await cli('plan')).stdout).toContain('No changes.');

    await writeFile(join(dir, 'posts/launch.md'), post({ body: 'We launch on Tuesday.' }));
    result = await cli('plan', '--detailed-exitcode');
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('~ update  launch');
    expect(result.stdout).toContain('content: We launch on [-Monday-]{+Tuesday+}.');
    expect((await cli('apply', '--yes')).code).toBe(0);

    await rename(join(dir, 'posts/2026-12/teaser.md'), join(dir, 'posts/2026-12/first-look.md'));
    await api.clearLog();
    result = await cli('apply', '--yes');
    expect(result.stdout).toContain('→ move    2026-12/teaser → 2026-12/first-look');
    expect(await writes()).toEqual([]);
    const state = JSON.parse(await readFile(join(dir, '.postsync/state.json'), 'utf8'));
    expect(Object.keys(state.targets[Object.keys(state.targets)[0]!].posts).sort()).toEqual(['2026-12/first-look', 'launch']);

    await rm(join(dir, 'posts/launch.md'));
    result = await cli('apply', '--yes');
    expect(result.stdout).not.toContain('- delete');
    expect(result.stdout).toContain("1 removed file's post stays a draft on the remote (`apply --prune` deletes it).");
    expect(await remotePosts()).toHaveLength(2);
    result = await cli('apply', '--prune', '--yes');
    expect(result.stdout).toContain('- deleted launch');
    expect((await remotePosts()).map((p) => p.content)).toEqual(['A first look.']);

    const scheduled = post({ body: 'A first look.', targets: '[short]', media: '[media/teaser.mp4]', scheduledAt: '2031-03-01 09:00' });
    await writeFile(join(dir, 'posts/2026-12/first-look.md'), scheduled);
    result = await cli('apply', '--yes');
    expect(result.stdout).toContain('scheduledAt: null → Sat 1 Mar 2031, 09:00 (+01:00)');
    let [remote] = await remotePosts();
    expect(remote).toMatchObject({ status: 'scheduled', scheduledAt: '2031-03-01T08:00:00.000Z' });

    await writeFile(join(dir, 'posts/2026-12/first-look.md'), post({ body: 'A first look.', targets: '[short]', media: '[media/teaser.mp4]' }));
    expect((await cli('apply', '--yes')).code).toBe(0);
    [remote] = await remotePosts();
    expect(remote).toMatchObject({ status: 'draft', scheduledAt: null });

    await api.clearLog();
    result = await cli('apply', '--yes');
    expect(result.stdout).toContain('No changes.');
    expect(await writes()).toEqual([]);
  });

  it('keeps readings in .postsync/cache between runs; --no-cache neither reads nor writes it; a damaged cache is ignored', async () => {
    const dir = await demoProject({ 'launch.md': post({ body: 'We launch on Monday.' }) });
    const api = emulator();
    const cli = cliIn(dir, api.baseUrl);
    const cacheFiles = () => readdir(join(dir, '.postsync/cache')).then((names) => names.sort(), () => []);

    const uncached = await cli('plan', '--no-cache');
    expect(uncached.code).toBe(0);
    expect(await cacheFiles()).toEqual([]);

    // A reading is kept only once its file is old enough that a same-second edit cannot hide behind
    // its stamp: the files are aged, so the memo keeps them however fast this machine is.
    const long = new Date('2026-01-01T00:00:00Z');
    for (const file of ['posts/launch.md', 'media/cover.png']) await utimes(join(dir, file), long, long);
    expect((await cli('plan')).stdout).toBe(uncached.stdout);
    expect(await cacheFiles()).toEqual(expect.arrayContaining(['.gitignore', 'posts.json']));
    expect((await cli('plan')).stdout).toBe(uncached.stdout);

    await writeFile(join(dir, '.postsync/cache/posts.json'), '{"format":1,"entries":{"posts/launch.md":');
    expect((await cli('plan')).stdout).toBe(uncached.stdout);
    await writeFile(join(dir, 'posts/launch.md'), post({ body: 'We launch on Tuesday.' }));
    expect((await cli('plan', '--json')).stdout).toContain('We launch on Tuesday.');
  });

  it('plans settled, unchanged files from the reading memo and still sees every change: a remote edit, a file edit, a removed file', async () => {
    const dir = await demoProject({
      'launch.md': post({ body: 'We launch on Monday.' }),
      'teaser.md': post({ body: 'A first look.', targets: '[short]', media: '[media/teaser.mp4]' }),
    });
    const api = emulator();
    const cli = cliIn(dir, api.baseUrl);
    expect((await cli('apply', '--yes')).code).toBe(0);
    const long = new Date('2026-01-01T00:00:00Z');
    for (const file of ['posts/launch.md', 'posts/teaser.md', 'media/cover.png', 'media/teaser.mp4']) await utimes(join(dir, file), long, long);
    expect((await cli('plan')).stdout).toContain('No changes.');
    // The memo holds a reading of every post file, under its settled stamp.
    // Rows of file, size, mtime, ctime, inode, post… (src/cache/post-rows.ts).
    const memo = JSON.parse(await readFile(join(dir, '.postsync/cache/posts.json'), 'utf8')).entries.rows as [string, number, number, number, number, { key: string }][];
    expect(memo.map(([file]) => file).sort()).toEqual(['posts/launch.md', 'posts/teaser.md']);
    expect(memo.every(([, size, , , , post]) => size > 0 && post.key !== '')).toBe(true);
    expect((await cli('plan')).stdout).toContain('No changes.');

    const [launch] = ((await api.api('GET', '/posts?limit=100')).body.data.items as { id: string; content: string }[]).filter((p) => p.content === 'We launch on Monday.');
    expect((await api.api('PATCH', `/posts/${launch!.id}`, { body: { content: 'Edited in the web app.' } })).status).toBe(200);
    let result = await cli('plan', '--detailed-exitcode');
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('~ update  launch');
    expect(result.stdout).toContain('drifted on the remote since the last apply: content');
    expect((await cli('apply', '--yes')).code).toBe(0);
    expect((await cli('plan', '--detailed-exitcode')).code).toBe(0);

    await writeFile(join(dir, 'posts/teaser.md'), post({ body: 'A second look.', targets: '[short]', media: '[media/teaser.mp4]' }));
    await rm(join(dir, 'posts/launch.md'));
    result = await cli('plan');
    expect(result.stdout).toContain('~ update  teaser');
    expect(result.stdout).toContain("1 removed file's post stays a draft on the remote");
  });
});
