import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { demoProject, post } from '../e2e/project.js';
import { startWatchProcess, type WatchProcess } from './watch-process.js';

const emulator = useEmulator();
const env = { POSTSYNC_API_KEY: DEMO_API_KEY };
const examples = (name: string) => new URL(`../../examples/media/${name}`, import.meta.url).pathname;

/** `12:03:04 <what happened> → <plan>`: the headline of each block watch prints. */
const headline = (text: string) => new RegExp(`\\d\\d:\\d\\d:\\d\\d ${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

function startWatch(dir: string, args: string[] = []): WatchProcess {
  const watch = startWatchProcess(['--api-url', emulator().baseUrl, 'watch', ...args], { cwd: dir, env });
  onTestFinished(async () => {
    await watch.stop('SIGKILL');
  });
  return watch;
}

describe('postsync watch, driven as a person edits', () => {
  it('re-plans after every save, rename, broken and fixed file, deleted folder and replaced media; no request per save', async () => {
    const dir = await demoProject({
      'launch.md': post({ body: 'We launch on Monday.' }),
      '2026-12/teaser.md': post({ body: 'A first look.', targets: '[short]', media: '[media/teaser.mp4]' }),
    });
    const api = emulator();
    const file = (path: string) => join(dir, path);
    expect((await runCli(['--api-url', api.baseUrl, 'apply', '--yes'], { cwd: dir, env })).code).toBe(0);

    const watch = startWatch(dir);
    await watch.waitFor('Watching posts/ (2 post files, 2 media files) and postsync.yaml; remote data is re-read every 60 s. Stop with Ctrl-C.');
    expect(watch.stdout()).toContain('No changes. The remote matches your files.');
    await api.clearLog();

    // A plain save.
    let mark = watch.mark();
    await writeFile(file('posts/launch.md'), post({ body: 'We launch on Tuesday.' }));
    let block = await watch.waitFor(headline('posts/launch.md saved → 1 to update (was no changes)'), mark);
    expect(block).toContain('~ update  launch  (posts/launch.md)');
    expect(block).toContain('content: We launch on [-Monday-]{+Tuesday+}.');

    // An atomic save (temp file, then rename over the post) that undoes the edit.
    mark = watch.mark();
    await writeFile(file('posts/launch.md.tmp-4913'), post({ body: 'We launch on Monday.' }));
    await rename(file('posts/launch.md.tmp-4913'), file('posts/launch.md'));
    block = await watch.waitFor(headline('posts/launch.md saved → no changes (was 1 to update)'), mark);
    expect(block).toContain('✓ launch: nothing to do any more (was ~ update)');
    expect(block).not.toContain('tmp-4913');

    // A rename of an applied post is a move.
    mark = watch.mark();
    await rename(file('posts/launch.md'), file('posts/launch-day.md'));
    block = await watch.waitFor(headline('posts/launch.md renamed to posts/launch-day.md → 1 to move (was no changes)'), mark);
    expect(block).toContain('→ move    launch → launch-day  (posts/launch-day.md)');

    // A new file with half-typed YAML, then fixed.
    mark = watch.mark();
    await writeFile(file('posts/news.md'), '---\ntargets: [photo\nmedia: [media/cover.png]\n---\nNews.\n');
    block = await watch.waitFor(headline('posts/news.md added → 1 to move, 1 blocked, 1 error (was 1 to move)'), mark);
    expect(block).toMatch(/posts\/news\.md:\d+:\d+ error .*\[yaml-syntax\]/);
    expect(block).toContain('! blocked news  (posts/news.md)');
    mark = watch.mark();
    await writeFile(file('posts/news.md'), post({ body: 'News.' }));
    block = await watch.waitFor(headline('posts/news.md saved → 1 to create, 1 to move (was 1 to move, 1 blocked, 1 error)'), mark);
    expect(block).toContain('+ create  news  (posts/news.md)');
    expect(block).toMatch(/✓ fixed: posts\/news\.md .*\[yaml-syntax\]/);

    // A media file the post waits for, copied in after the post was saved.
    mark = watch.mark();
    await writeFile(file('posts/news.md'), post({ body: 'News.', media: '[media/new.png]' }));
    block = await watch.waitFor(headline('posts/news.md saved → 1 to move, 1 blocked, 1 error (was 1 to create, 1 to move)'), mark);
    expect(block).toContain('[media-not-found]');
    mark = watch.mark();
    await copyFile(examples('cover.png'), file('media/new.png'));
    block = await watch.waitFor(headline('media/new.png added → 1 to create, 1 to move (was 1 to move, 1 blocked, 1 error)'), mark);
    expect(block).toMatch(/✓ fixed: posts\/news\.md .*\[media-not-found\]/);

    // A deleted file.
    mark = watch.mark();
    await rm(file('posts/news.md'));
    block = await watch.waitFor(headline('posts/news.md deleted → 1 to move (was 1 to create, 1 to move)'), mark);
    expect(block).toContain('✓ news: nothing to do any more (was + create)');

    // A deleted folder, then the same folder re-created.
    mark = watch.mark();
    await rm(file('posts/2026-12'), { recursive: true });
    block = await watch.waitFor(/posts\/2026-12\/ deleted → 1 to move, 1 kept as draft \(file removed\) \(was 1 to move\)/, mark);
    expect(block).not.toContain('- delete');
    mark = watch.mark();
    await mkdir(file('posts/2026-12'));
    await writeFile(file('posts/2026-12/teaser.md'), post({ body: 'A first look.', targets: '[short]', media: '[media/teaser.mp4]' }));
    // (The folder and its file may come as one burst or two: wait for the plan they lead to.)
    block = await watch.waitFor(/ → 1 to move \(was 1 to move, 1 kept as draft \(file removed\)\)/, mark);
    expect(block).toMatch(headline('posts/2026-12/ created'));

    // A media file replaced by another video.
    mark = watch.mark();
    await copyFile(examples('launch.mp4'), file('media/teaser.mp4'));
    block = await watch.waitFor(headline('media/teaser.mp4 saved → 1 to update, 1 to move (was 1 to move)'), mark);
    expect(block).toContain('~ update  2026-12/teaser  (posts/2026-12/teaser.md)');
    expect(block).toContain('Media: 1 file to upload (1010 bytes): media/teaser.mp4.');

    // postsync.yaml broken, then fixed: the previous settings stay in use meanwhile.
    const config = await readFile(file('postsync.yaml'), 'utf8');
    mark = watch.mark();
    await writeFile(file('postsync.yaml'), config.replace('timezone: Europe/Berlin', 'timezone: Mars/Olympus'));
    block = await watch.waitFor('[unknown-timezone]', mark);
    expect(block).toContain('postsync.yaml is invalid; the previous settings stay in use until it is fixed:');
    mark = watch.mark();
    await writeFile(file('postsync.yaml'), config);
    block = await watch.waitFor(headline('postsync.yaml saved → 1 to update, 1 to move'), mark);
    expect(block).toContain('postsync.yaml is valid again.');

    // Not one request for all those saves; `r` re-reads the remote, with reads only.
    expect(await api.requestLog()).toEqual([]);
    mark = watch.mark();
    watch.send('r');
    await watch.waitFor(headline('remote data re-read → 1 to update, 1 to move'), mark);
    const log = await api.requestLog();
    expect(log.map((entry) => `${entry.method} ${entry.path}`)).toContain('GET /public/v1/posts');
    expect(log.every((entry) => entry.method === 'GET')).toBe(true);
    // Read as a plan reads: the drafts and the scheduled posts, never the whole history.
    expect(log.filter((entry) => entry.path === '/public/v1/posts').map((entry) => new URLSearchParams(entry.query).get('status')).sort()).toEqual(['draft', 'scheduled']);

    const result = await watch.stop('SIGINT');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Stopped watching.');
    expect(result.stderr).toBe('');
  });

  it('re-reads the remote on the interval: quietly while nothing changed, and shows an edit made on the remote', async () => {
    const dir = await demoProject({ 'launch.md': post({ body: 'We launch on Monday.' }) });
    const api = emulator();
    expect((await runCli(['--api-url', api.baseUrl, 'apply', '--yes'], { cwd: dir, env })).code).toBe(0);
    const [live] = (await api.api('GET', '/posts?limit=100')).body.data.items as { id: string; content: string }[];
    const launch = live!;

    const watch = startWatch(dir, ['--refresh', '1']);
    await watch.waitFor('remote data is re-read every 1 s.');
    const mark = watch.mark();
    await api.clearLog();
    await expect.poll(async () => (await api.requestLog()).some((entry) => entry.path === '/public/v1/posts'), { timeout: 10_000 }).toBe(true);
    expect(watch.stdout().slice(mark)).toBe('');

    expect((await api.api('PATCH', `/posts/${launch.id}`, { body: { content: 'Edited in the web app.' } })).status).toBe(200);
    const block = await watch.waitFor(headline('remote data re-read (interval) → 1 to update (was no changes)'), mark);
    expect(block).toContain('content: [-Edited-]{+We+} [-in-]{+launch+} [-the-]{+on+} [-web app-]{+Monday+}.');
    expect((await watch.stop('SIGINT')).code).toBe(0);
  });

  it('--apply-drafts creates and updates drafts as they are saved, never a scheduled post', async () => {
    const dir = await demoProject({
      'draft.md': post({ body: 'A draft.' }),
      'scheduled.md': post({ body: 'Goes out later.', scheduledAt: '2031-03-01 09:00' }),
    });
    const api = emulator();
    await api.reset();
    const remotePosts = async () => (await api.api('GET', '/posts?limit=100')).body.data.items as { content: string; status: string; scheduledAt: string | null }[];

    const watch = startWatch(dir, ['--apply-drafts']);
    let block = await watch.waitFor('Drafts applied: 1 created, 0 updated; 1 media file uploaded.');
    expect(block).toContain('applying 1 draft change (--apply-drafts):');
    expect(block).toContain('+ created draft');
    await watch.waitFor(headline('after applying drafts → 1 to create (was 2 to create)'));

    const mark = watch.mark();
    await writeFile(join(dir, 'posts/draft.md'), post({ body: 'A better draft.' }));
    block = await watch.waitFor('Drafts applied: 0 created, 1 updated; 0 media files uploaded.', mark);
    expect(block).toContain('~ updated draft');
    await watch.waitFor(headline('after applying drafts → 1 to create (was 1 to create, 1 to update)'), mark);

    expect(await remotePosts()).toEqual([expect.objectContaining({ content: 'A better draft.', status: 'draft', scheduledAt: null })]);
    expect(existsSync(join(dir, '.postsync/state.json.lock'))).toBe(false);
    const result = await watch.stop('SIGTERM');
    expect(result.code).toBe(0);
  });

  it('tells, at start and after each save of a draft, whether it is ready to schedule or what is missing', async () => {
    const dir = await demoProject({ 'idea.md': '---\ntargets: [photo]\n---\nPhoto TBD.\n', 'launch.md': post({ body: 'We launch on Monday.' }) });
    const watch = startWatch(dir);
    await watch.waitFor('Stop with Ctrl-C.');
    expect(watch.stdout()).toMatch(/Drafts \(2, 1 not ready to schedule\):\n {2}posts\/idea\.md\s+not ready to schedule: `photo` \(photoC\) needs at least 1 image or video\n {2}posts\/launch\.md\s+ready to schedule/);
    expect(watch.stdout()).toContain('Plan: 2 to create, 0 to update, 0 to delete. 1 draft not ready to schedule yet.');

    let mark = watch.mark();
    await writeFile(join(dir, 'posts/idea.md'), post({ body: 'Photo found.' }));
    let block = await watch.waitFor(/posts\/idea\.md\s+ready to schedule/, mark);
    expect(block).toMatch(headline('posts/idea.md saved → 2 to create'));
    mark = watch.mark();
    await writeFile(join(dir, 'posts/idea.md'), '---\ntargets: [video]\n---\nA video instead.\n');
    block = await watch.waitFor(/posts\/idea\.md\s+not ready to schedule: .*vidATitle/, mark);
    expect(block).not.toContain('posts/launch.md');
    expect((await watch.stop('SIGINT')).code).toBe(0);
  });
});
