import { readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CalendarModel, CalendarPost } from '../../src/calendar/model.js';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { photoPostFile as post, writtenPageModel } from './fixtures.js';

/**
 * `postsync calendar` keeps the page's entry of each post the plan leaves alone
 * (`.postsync/cache/calendar-entries.json`) and shows the post from it next time, for as long as
 * its file and its remote post are the same; the page is the one the files and the remote make.
 */
const emulator = useEmulator();
const ENTRIES = '.postsync/cache/calendar-entries.json';

async function appliedProject(): Promise<string> {
  await emulator().reset();
  const dir = await testdir({
    'postsync.yaml': `timezone: Europe/Berlin\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`,
    'media/cover.png': await readFile(new URL('../../examples/media/cover.png', import.meta.url)),
    'posts/jan.md': post('2027-01-05 09:00', 'January'),
    'posts/feb.md': post('2027-02-05 09:00', 'February, café'),
    'posts/idea.md': '---\ntargets: [photo]\nmedia: [media/cover.png]\n---\nAn idea\n',
  });
  // Files older than a couple of seconds: their stamps vouch for their bytes, so warm runs read none of them.
  const past = new Date(Date.now() - 3_600_000);
  for (const file of ['posts/jan.md', 'posts/feb.md', 'posts/idea.md']) await utimes(join(dir, file), past, past);
  expect((await cli(dir, 'apply', '--yes')).code).toBe(0);
  return dir;
}

function cli(dir: string, ...args: string[]) {
  return runCli(['-C', dir, '--api-url', emulator().baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
}

async function calendar(dir: string, out: string, ...args: string[]): Promise<CalendarModel<CalendarPost>> {
  const result = await cli(dir, 'calendar', '--out', out, ...args);
  expect(result.code, result.stderr).toBe(0);
  // Made at another moment: the same calendar otherwise.
  return { ...(await writtenPageModel(join(dir, out, 'index.html'))), generatedAt: '' };
}

/** Rewrites the kept entries' texts (`from` → `to`), as only a page made from them would show. */
async function alterKeptTexts(dir: string, from: string, to: string): Promise<void> {
  const text = await readFile(join(dir, ENTRIES), 'latin1');
  expect(text).toContain(from);
  await writeFile(join(dir, ENTRIES), text.replaceAll(from, to), 'latin1');
}

const textOf = (model: CalendarModel<CalendarPost>, key: string) => model.posts.find((shown) => shown.key === key)!.text;

describe('postsync calendar with the entries of the last page', () => {
  it('makes the same page from kept entries as from the cards, and shows a post from its kept entry', async () => {
    const dir = await appliedProject();
    const cold = await calendar(dir, 'cold', '--no-cache');
    expect(await calendar(dir, 'first')).toEqual(cold);
    expect(await calendar(dir, 'warm')).toEqual(cold);
    expect(await calendar(dir, 'ranged', '--from', '2027-02-01', '--to', '2027-03-01')).toEqual(await calendar(dir, 'ranged-cold', '--no-cache', '--from', '2027-02-01', '--to', '2027-03-01'));

    await alterKeptTexts(dir, 'January', 'Janvier');
    expect(textOf(await calendar(dir, 'kept'), 'jan')).toBe('Janvier');
  });

  it('makes an entry again when its file changes, or its remote post', async () => {
    const dir = await appliedProject();
    await calendar(dir, 'first');
    await alterKeptTexts(dir, 'January', 'Janvier');
    await alterKeptTexts(dir, 'An idea', 'Une idee');

    // The remote publishes January's post: the plan leaves it alone, its status is new.
    const now = Date.parse((await emulator().advanceClock(0)).now);
    await emulator().advanceClock(Math.ceil((Date.parse('2027-01-05T09:00:00+01:00') - now) / 1000) + 60);
    await writeFile(join(dir, 'posts/idea.md'), '---\ntargets: [photo]\nmedia: [media/cover.png]\n---\nA better idea\n');
    const model = await calendar(dir, 'after');
    expect(model.posts.find((shown) => shown.key === 'jan')).toMatchObject({ text: 'January', status: 'published', overlay: null });
    expect(model.posts.find((shown) => shown.key === 'idea')).toMatchObject({ text: 'A better idea', overlay: 'changed' });
    expect(textOf(model, 'feb')).toBe('February, café');
  });

  it('makes the same feed from kept entries', async () => {
    const dir = await appliedProject();
    const feed = async (name: string) => (await readFile(join(dir, name), 'utf8')).replace(/^DTSTAMP:.*$/gm, '');
    await calendar(dir, 'first', '--ics', 'first.ics');
    await calendar(dir, 'warm', '--ics', 'warm.ics');
    expect(await feed('warm.ics')).toBe(await feed('first.ics'));
    expect(await feed('warm.ics')).toContain('SUMMARY:February\\, café [photo]');
  });
});
