import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { writtenPageModel } from '../calendar/fixtures.js';
import { demoProject } from './project.js';

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
