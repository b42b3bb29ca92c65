import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { writtenPageModel } from '../calendar/fixtures.js';
import { demoProject } from './project.js';

const emulator = useEmulator();

/** One definition of "ready to schedule", the same in validate, plan, status and the calendar. */
describe('readiness: one meaning everywhere', () => {
  it('a draft without accounts, or one its account still needs an option for, is not ready in validate, plan and the calendar alike', async () => {
    const dir = await demoProject({
      'empty.md': '---\ntargets: []\n---\nNo accounts yet.\n',
      'vid.md': '---\ntargets: [video]\nmedia: [media/teaser.mp4]\n---\nA video without a title.\n',
      'fine.md': '---\ntargets: [photo]\nmedia: [media/cover.png]\n---\nReady to go.\n',
    });
    const validate = JSON.parse((await runCli(['validate', '--json'], { cwd: dir })).stdout) as { drafts: { key: string; ready: boolean; missing: string[] }[] };
    const byKey = Object.fromEntries(validate.drafts.map((draft) => [draft.key, draft]));
    expect(byKey.empty).toMatchObject({ ready: false, missing: ['needs an account under `targets:`'] });
    expect(byKey.vid).toMatchObject({ ready: false, missing: ['`video` (vidA) needs the option `vidATitle`'] });
    expect(byKey.fine).toMatchObject({ ready: true, missing: [] });

    const human = await runCli(['validate'], { cwd: dir });
    expect(human.stdout).toContain('posts/empty.md  not ready to schedule: needs an account under `targets:`');
    expect(human.stdout).toContain('2 drafts not ready to schedule yet.');

    const plan = await runCli(['plan'], { cwd: dir });
    expect(plan.stdout).toContain('2 drafts not ready to schedule yet.');

    expect((await runCli(['calendar', '--out', 'cal'], { cwd: dir })).code).toBe(0);
    const model = await writtenPageModel(join(dir, 'cal/index.html'));
    const ready = Object.fromEntries(model.posts.map((post) => [post.key, post.ready]));
    expect(ready).toEqual({ empty: false, vid: false, fine: true });
    expect(model.totals).toMatchObject({ unscheduled: 3, ready: 1 });
    await writeFile(join(dir, 'posts/empty.md'), '---\ntargets: [photo]\nmedia: [media/cover.png]\n---\nNow with an account.\n');
    expect(JSON.parse((await runCli(['validate', '--json'], { cwd: dir })).stdout).drafts.find((draft: { key: string }) => draft.key === 'empty')).toMatchObject({ ready: true });
  });
});

describe('readiness of a draft whose file has an error', () => {
  it('is not ready in validate, status and the calendar alike, with the error to fix', async () => {
    const dir = await demoProject({
      'idea.md': '---\ntargets: [photo]\nmedia: [media/cover.png]\n---\nA cheap idea.\n',
      'fine.md': '---\ntargets: [photo]\nmedia: [media/cover.png]\n---\nReady to go.\n',
    });
    const api = emulator();
    await api.reset();
    const cli = (...args: string[]) => runCli(['--api-url', api.baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
    expect((await cli('apply', '--yes')).code).toBe(0);
    // A house rule the applied draft now breaks: an error of its file.
    await writeFile(join(dir, 'postsync.yaml'), `${await readFile(join(dir, 'postsync.yaml'), 'utf8')}rules:\n  wording: { bannedWords: [cheap] }\n`);
    const notReady = { ready: false, missing: ['the error in its file fixed'] };

    const validate = JSON.parse((await cli('validate', '--json')).stdout) as { drafts: { key: string; ready: boolean; missing: string[] }[] };
    expect(validate.drafts).toMatchObject([{ key: 'fine', ready: true }, { key: 'idea', ...notReady }]);
    const human = await cli('validate');
    expect(human.stdout).toContain('Drafts (2, 1 not ready to schedule):');
    expect(human.stdout).toContain('posts/idea.md  not ready to schedule: the error in its file fixed');

    const status = JSON.parse((await cli('status', '--json')).stdout) as { posts: { key: string; readiness: unknown }[] };
    expect(status.posts.map((post) => [post.key, post.readiness])).toEqual([['fine', { ready: true, missing: [] }], ['idea', notReady]]);

    expect((await cli('calendar', '--out', 'cal')).code).toBe(0);
    const model = await writtenPageModel(join(dir, 'cal/index.html'));
    expect(Object.fromEntries(model.posts.map((post) => [post.key, post.ready]))).toEqual({ fine: true, idea: false });
  });
});
