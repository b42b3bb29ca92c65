import { readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CalendarModel, CalendarPost } from '../../src/calendar/model.js';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { RefusingProxy } from '../helpers/refusing-proxy.js';
import { testdir } from '../helpers/testdir.js';
import { startWatchProcess } from '../watch/watch-process.js';
import { pageModel, photoPostFile as post, writtenPageModel } from './fixtures.js';

const emulator = useEmulator();

async function project(): Promise<string> {
  return testdir({
    'postsync.yaml': `timezone: Europe/Berlin\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`,
    'media/cover.png': await readFile(new URL('../../examples/media/cover.png', import.meta.url)),
    'posts/jan.md': post('2027-01-05 09:00', 'January'),
    'posts/feb.md': post('2027-02-05 09:00', 'February'),
  });
}


function calendar(dir: string, apiUrl: string, ...args: string[]) {
  return runCli(['-C', dir, '--api-url', apiUrl, 'calendar', ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
}

describe('postsync calendar', () => {
  it('writes the page to .postsync/calendar (git-ignored) by default, only the posts in --from/--to, and the feed', async () => {
    const dir = await project();
    const result = await calendar(dir, emulator().baseUrl, '--from', '2027-02-01', '--to', '2027-02-28', '--ics', 'feed.ics');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Calendar: .postsync/calendar/index.html (1 scheduled post, 0 unscheduled posts; times in Europe/Berlin)\nPlan: 1 new.\nFeed: feed.ics (1 event)\n');
    expect(await readFile(join(dir, '.postsync/calendar/.gitignore'), 'utf8')).toContain('*\n');
    const model = await writtenPageModel(join(dir, '.postsync/calendar/index.html'));
    expect(model.posts.map((post) => post.key)).toEqual(['feb']);
    expect(model.range).toEqual({ from: '2027-01-31T23:00:00.000Z', to: '2027-02-28T23:00:00.000Z' });
    expect(model.initial.month).toBe('2027-02');
    expect(await readFile(join(dir, 'feed.ics'), 'utf8')).toContain('SUMMARY:February [photo]\r\n');
  });

  it('makes the same calendar from the readings .postsync/cache keeps as from the files, and shows an edit at once', async () => {
    const dir = await project();
    // Files older than a couple of seconds: their stamps vouch for their bytes, so the warm run reads none of them.
    const past = new Date(Date.now() - 3_600_000);
    for (const file of ['posts/jan.md', 'posts/feb.md']) await utimes(join(dir, file), past, past);
    const same = (model: CalendarModel<CalendarPost>) => ({ ...model, generatedAt: null });
    expect((await calendar(dir, emulator().baseUrl, '--out', 'cold', '--no-cache')).code).toBe(0);
    for (const out of ['first', 'warm']) expect((await calendar(dir, emulator().baseUrl, '--out', out)).code).toBe(0);
    const cold = same(await writtenPageModel(join(dir, 'cold/index.html')));
    expect(same(await writtenPageModel(join(dir, 'first/index.html')))).toEqual(cold);
    expect(same(await writtenPageModel(join(dir, 'warm/index.html')))).toEqual(cold);
    const memo = JSON.parse(await readFile(join(dir, '.postsync/cache/posts.json'), 'utf8')) as { entries: { rows: [string, ...unknown[]][] } };
    expect(memo.entries.rows.map(([file]) => file).sort()).toEqual(['posts/feb.md', 'posts/jan.md']);

    await writeFile(join(dir, 'posts/feb.md'), post('2027-02-05 09:00', 'February, <b>edited</b>'));
    expect((await calendar(dir, emulator().baseUrl, '--out', 'edited')).code).toBe(0);
    const edited = await writtenPageModel(join(dir, 'edited/index.html'));
    expect(edited.posts.find((shown) => shown.key === 'feb')!.text).toBe('February, <b>edited</b>');
  });

  it('refuses a range that is not one, and a date that is not a date', async () => {
    const dir = await project();
    let result = await calendar(dir, emulator().baseUrl, '--from', '2027-03-01', '--to', '2027-02-01');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--from (2027-02-28T23:00:00.000Z) is not before --to (2027-02-01T23:00:00.000Z)');
    result = await calendar(dir, emulator().baseUrl, '--from', 'next tuesday');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--from "next tuesday" is not a date or time');
  });

  it('without an answer from the API, takes statuses from the state file and says so', async () => {
    const dir = await project();
    // The service goes away behind a proxy that keeps its port: a closed server's port may be given
    // to another test's server, and the state is found by the API URL, so the URL must stay.
    const remote = await RefusingProxy.start(emulator().baseUrl);
    try {
      expect((await runCli(['-C', dir, '--api-url', remote.baseUrl, 'apply', '--yes'], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } })).code).toBe(0);
      remote.drop(() => true);
      await writeFile(join(dir, 'posts/feb.md'), post('2027-02-06 09:00', 'February, a day later'));
      await writeFile(join(dir, 'posts/mar.md'), post('2027-03-05 09:00', 'March'));
      const result = await calendar(dir, remote.baseUrl, '--out', 'out');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('The API was not reached (Reading the API key session failed: no answer from GET /public/v1/auth/session');
      expect(result.stdout).toContain('statuses come from the state file, and the plan is not shown.');
    } finally {
      await remote.close();
    }
    const model = await writtenPageModel(join(dir, 'out/index.html'));
    expect(model.source).toBe('state');
    expect(model.summary).toBeNull();
    expect(Object.fromEntries(model.posts.map((post) => [post.key, post.status]))).toEqual({ jan: 'applied', feb: 'edited since applied', mar: 'not applied' });
  });
});

describe('a post a house rule holds', () => {
  const heldProject = async () =>
    testdir({
      'postsync.yaml': `timezone: Europe/Berlin\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\nrules:\n  nights:\n    quietHours: { from: "22:00", to: "07:00" }\n`,
      'media/cover.png': await readFile(new URL('../../examples/media/cover.png', import.meta.url)),
      'posts/late.md': post('2027-01-05 23:30', 'Too late'),
    });

  it('is shown on its day with its accounts, and is in the feed', async () => {
    const dir = await heldProject();
    const result = await calendar(dir, emulator().baseUrl, '--out', 'out', '--ics', 'feed.ics');
    expect(result.code).toBe(0);
    const model = await writtenPageModel(join(dir, 'out/index.html'));
    const late = model.posts.find((shown) => shown.key === 'late')!;
    expect(late.slot).toMatchObject({ day: '2027-01-05', time: '23:30' });
    expect(late.targets.map((target) => target.account)).toEqual([DEMO_ACCOUNTS.photo]);
    expect(late.overlay).toBe('blocked');
    expect(late.text).toBe('Too late');
    expect(await readFile(join(dir, 'feed.ics'), 'utf8')).toContain('SUMMARY:Too late [photo]\r\n');
  });

  it('is shown the same by watch --calendar as by calendar', async () => {
    const dir = await heldProject();
    expect((await calendar(dir, emulator().baseUrl, '--out', 'out')).code).toBe(0);
    const written = (await writtenPageModel(join(dir, 'out/index.html'))).posts.find((shown) => shown.key === 'late');
    const watch = startWatchProcess(['-C', dir, '--api-url', emulator().baseUrl, 'watch', '--calendar', '--refresh', '3600'], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
    try {
      const url = /Calendar: (http:\/\/127\.0\.0\.1:\d+\/\?t=[\w-]+) \(updates after every save\)/.exec(await watch.waitFor(/Calendar: http:\/\/127\.0\.0\.1:\d+\//))![1]!;
      const served = pageModel(await (await fetch(url)).text()).posts.find((shown) => shown.key === 'late')!;
      // Only where the pictures are differs: next to a written page, or the server's route.
      const pictures = (post: CalendarPost) => post.media.map((media) => media.src);
      expect(pictures(served)).toEqual(pictures(written!).map((src) => `/${src}`));
      const withoutPictures = (post: CalendarPost) => ({ ...post, media: post.media.map(({ src: _src, ...media }) => media) });
      expect(withoutPictures(served)).toEqual(withoutPictures(written!));
    } finally {
      await watch.stop('SIGINT');
    }
  });
});
