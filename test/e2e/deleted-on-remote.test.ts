import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { demoProject, post } from './project.js';

const emulator = useEmulator();
const cliIn = (dir: string, baseUrl: string) => (...args: string[]) => runCli(['--api-url', baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });

describe('a scheduled post a person deleted in the service (a post pulled in a crisis)', () => {
  it('is held, saying when postsync last wrote it, and only apply --recreate makes it again', async () => {
    const api = emulator();
    await api.reset();
    const dir = await demoProject({ 'launch.md': post({ body: 'We launch on Monday.', scheduledAt: '2031-03-03 09:00' }) });
    const cli = cliIn(dir, api.baseUrl);
    expect((await cli('apply', '--yes')).code).toBe(0);
    const id = (await api.api('GET', '/posts')).body.data.items[0].id as string;
    expect((await api.api('DELETE', `/posts/${id}`)).status).toBe(200);
    // The apply was an hour ago: its post missing is no read that lags the write.
    const statePath = join(dir, '.postsync/state.json');
    const text = await readFile(statePath, 'utf8');
    const appliedAt = /"appliedAt": "([^"]+)"/.exec(text)![1]!;
    const hourAgo = new Date(Date.parse(appliedAt) - 3600_000).toISOString();
    await writeFile(statePath, text.replace(appliedAt, hourAgo));

    const plan = await cli('plan', '--detailed-exitcode');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/! blocked\s+launch/);
    expect(plan.stdout).toContain(`deleted on the remote since postsync last wrote it (${hourAgo}); held, not recreated`);
    expect(plan.stdout).toContain('`postsync apply --recreate launch`');
    expect(plan.stdout).toContain('Plan: 0 to create, 0 to update, 0 to delete. 1 blocked.');
    expect((await cli('apply', '--yes')).stdout).not.toContain('+ create');
    expect((await api.api('GET', '/posts')).body.data.items).toEqual([]);

    const recreated = await cli('apply', '--yes', '--recreate', 'launch');
    expect(recreated.code, recreated.stdout + recreated.stderr).toBe(0);
    expect(recreated.stdout).toContain('1 created');
    expect((await api.api('GET', '/posts')).body.data.items.map((item: { content: string }) => item.content)).toEqual(['We launch on Monday.']);
    expect((await cli('plan')).stdout).toContain('No changes.');
  }, 60_000);
});
