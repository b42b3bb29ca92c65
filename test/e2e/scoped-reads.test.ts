import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { demoProject, post } from './project.js';

const emulator = useEmulator();
const cliIn = (dir: string, baseUrl: string) => (...args: string[]) => runCli(['--api-url', baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });

describe('scoped remote reads', () => {
  it('knows a post published since the last apply, records it final, then neither lists nor reads it; notices a remote delete', async () => {
    const api = emulator();
    const soon = new Date(Date.now() + 3_600_000);
    const at = soon.toISOString().replace(/\.\d+Z$/, 'Z');
    const dir = await demoProject({ 'launch.md': post({ body: 'Launch.', scheduledAt: at }), 'note.md': post({ body: 'A draft.' }) });
    const cli = cliIn(dir, api.baseUrl);
    expect((await cli('apply', '--yes')).code).toBe(0);
    await api.setClock(new Date(soon.getTime() + 60_000));

    // Published since the last apply: read by id (not in the draft or scheduled listings), no change; apply records it final.
    const applied = await cli('apply', '--yes');
    expect(applied.code).toBe(0);
    const state = JSON.parse(await readFile(join(dir, '.postsync/state.json'), 'utf8')) as { targets: Record<string, { posts: Record<string, { final?: string }> }> };
    expect(Object.values(state.targets)[0]!.posts['launch']!.final).toBe('published');

    // Recorded final: the plan lists only drafts and scheduled posts and reads nothing by id.
    await api.clearLog();
    expect((await cli('plan', '--detailed-exitcode')).code).toBe(0);
    const reads = (await api.requestLog()).filter((entry) => entry.path.includes('/posts'));
    expect(reads.map((entry) => `${entry.path.replace(/^.*\/posts/, '/posts')}?${entry.query}`).sort()).toEqual(['/posts?status=draft&limit=100&sort=oldest', '/posts?status=scheduled&limit=100&sort=oldest']);

    // status reads as a plan does: the published post is shown as the last apply recorded it, not read.
    await api.clearLog();
    const status = JSON.parse((await cli('status', '--json')).stdout) as { posts: { key: string; remote: string; status: string | null }[] };
    expect(status.posts.map((p) => [p.key, p.remote, p.status])).toEqual([['launch', 'recorded', 'published'], ['note', 'present', 'draft']]);
    const statusReads = (await api.requestLog()).filter((entry) => entry.path.includes('/posts'));
    expect(statusReads.map((entry) => `${entry.path.replace(/^.*\/posts/, '/posts')}?${entry.query}`).sort()).toEqual(['/posts?status=draft&limit=100&sort=oldest', '/posts?status=scheduled&limit=100&sort=oldest']);
    expect((await cli('status')).stdout).toMatch(/published \(as the last apply saw it; --refresh-all reads it again\)/);
    expect((await cli('status', '--problems')).stdout).toContain('No problems');
    const refreshed = JSON.parse((await cli('status', '--json', '--refresh-all')).stdout) as { posts: { key: string; remote: string; status: string | null; publishedAt: string | null }[] };
    expect(refreshed.posts[0]).toMatchObject({ key: 'launch', remote: 'present', status: 'published' });
    expect(refreshed.posts[0]!.publishedAt).not.toBeNull();

    // Its file edited: read by id, and blocked as published.
    await writeFile(join(dir, 'posts/launch.md'), post({ body: 'Launch, edited.', scheduledAt: at }));
    const edited = await cli('plan');
    expect(edited.stdout).toContain('post is published; published posts are never edited');

    // A remote delete of an owned draft is noticed.
    const draftId = (await api.api('GET', '/posts?status=draft')).body.data.items[0].id as string;
    await api.api('DELETE', `/posts/${draftId}`);
    await rm(join(dir, 'posts/launch.md'));
    const afterDelete = await cli('plan', '--refresh-all');
    const scoped = await cli('plan');
    // Written by the apply moments ago: taken for a read that lags the write, not yet for a deletion (held after ten minutes).
    expect(scoped.stdout).toContain('1 post written moments ago is not visible on the remote yet');
    expect(scoped.stdout).toEqual(afterDelete.stdout);
  }, 120_000);
});
