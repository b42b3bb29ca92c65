import { appendFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { applyInProcess, inProcess, pending } from '../helpers/in-process.js';
import { demoProject, post } from './project.js';

const emulator = useEmulator();

const cliIn = (dir: string, baseUrl: string) => (...args: string[]) => runCli(['--api-url', baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
/** An apply that sets a case up, in this process: nothing fails or is blocked. */
const setUp = async (dir: string, baseUrl: string) => expect((await applyInProcess(dir, baseUrl)).blocked).toBe(0);
/** What `postsync plan` prints as `No changes.`, planned in this process. */
const expectNoChanges = async (dir: string, baseUrl: string) => expect(pending(await inProcess(dir, baseUrl).plan())).toEqual([]);

describe('renames and removals of scheduled posts, as a team meets them', () => {
  it('a renamed scheduled post never clashes with its own former key under a spacing rule', async () => {
    const dir = await demoProject({ 'launch.md': post({ body: 'We launch on Monday.', scheduledAt: '2031-03-03 09:00' }) });
    await appendFile(join(dir, 'postsync.yaml'), ['rules:', '  spacing: { minGap: 2h }', '  daily: { maxPerDay: 1 }', ''].join('\n'));
    const api = emulator();
    const cli = cliIn(dir, api.baseUrl);
    await setUp(dir, api.baseUrl);

    await rename(join(dir, 'posts/launch.md'), join(dir, 'posts/launch-monday.md'));
    const plan = await cli('plan');
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('→ move    launch → launch-monday');
    expect(plan.stdout).not.toContain('spacing');
    expect(plan.stdout).not.toContain('daily');
    expect((await cli('apply', '--yes')).code).toBe(0);
    await expectNoChanges(dir, api.baseUrl);
  });

  it('a removed file\'s scheduled post is returned to draft, never left to publish; --prune deletes it', async () => {
    const dir = await demoProject({
      'launch.md': post({ body: 'We launch on Monday.', scheduledAt: '2031-03-03 09:00' }),
      'keep.md': post({ body: 'Stays.', scheduledAt: '2031-03-04 09:00' }),
    });
    const api = emulator();
    const cli = cliIn(dir, api.baseUrl);
    await setUp(dir, api.baseUrl);
    const remote = async () => ((await api.api('GET', '/posts?limit=100')).body.data.items as { content: string; status: string; scheduledAt: string | null }[]).sort((a, b) => a.content.localeCompare(b.content));

    await rm(join(dir, 'posts/launch.md'));
    let result = await cli('plan', '--json');
    const plan = JSON.parse(result.stdout);
    expect(plan.changes.find((change: { key: string }) => change.key === 'launch')).toMatchObject({ action: 'unschedule', postId: expect.any(String) });
    expect(plan.summary.unschedule).toBe(1);
    result = await cli('plan');
    expect(result.stdout).toContain('unschedule launch');
    expect(result.stdout).toContain('posts/launch.md removed: the post goes back to draft on the remote (--prune deletes it)');
    expect(result.stdout).toContain('1 to unschedule');

    result = await cli('apply', '--yes');
    expect(result.code).toBe(0);
    expect(await remote()).toMatchObject([
      { content: 'Stays.', status: 'scheduled' },
      { content: 'We launch on Monday.', status: 'draft', scheduledAt: null },
    ]);
    await expectNoChanges(dir, api.baseUrl);

    // The ICS feed and the post stay in agreement: nothing publishes at 09:00 any more.
    await api.setClock(new Date('2031-03-05T00:00:00Z'));
    expect((await remote()).map((p) => p.status)).toEqual(['published', 'draft']);

    result = await cli('apply', '--prune', '--yes');
    expect(result.code).toBe(0);
    expect((await remote()).map((p) => p.content)).toEqual(['Stays.']);
  });
});

describe('removals of published posts, as a team archives them', () => {
  it('a removed file\'s published post is left as it is: nothing is blocked, with or without --prune', async () => {
    const dir = await demoProject({
      'launch.md': post({ body: 'We launch on Monday.', scheduledAt: '2031-03-03 09:00' }),
      'keep.md': post({ body: 'Stays.', scheduledAt: '2031-03-10 09:00' }),
    });
    const api = emulator();
    await api.reset();
    const cli = cliIn(dir, api.baseUrl);
    await setUp(dir, api.baseUrl);
    await api.setClock(new Date('2031-03-04T00:00:00Z'));
    await setUp(dir, api.baseUrl);

    await rm(join(dir, 'posts/launch.md'));
    for (const args of [[], ['--prune']]) {
      const plan = JSON.parse((await cli('plan', '--json', ...args)).stdout);
      expect(plan.summary).toMatchObject({ blocked: 0, delete: 0, unschedule: 0 });
      expect(plan.changes.find((change: { key: string }) => change.key === 'launch')).toMatchObject({
        action: 'noop',
        reason: 'published-kept',
        reasons: ['posts/launch.md removed: the post is published and stays as it is (published posts are never deleted)'],
      });
      const human = await cli('plan', '--detailed-exitcode', ...args);
      expect([human.code, human.stdout]).toEqual([0, expect.stringContaining('No changes.')]);
      expect(human.stdout).not.toContain('blocked');
    }
    expect((await cli('apply', '--prune', '--yes')).code).toBe(0);
    const remote = (await api.api('GET', '/posts?limit=100')).body.data.items as { content: string; status: string }[];
    expect(remote.find((p) => p.content === 'We launch on Monday.')).toMatchObject({ status: 'published' });
  });
});
