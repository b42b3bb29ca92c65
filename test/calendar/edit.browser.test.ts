import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { calendarAddress, startWatchProcess, type WatchProcess } from '../watch/watch-process.js';
import { CalendarServer, SERVED_MEDIA_PREFIX } from '../../src/calendar/live-server.js';
import { BROWSER_MISSING, openPage, screenshot, useBrowser } from './browser.js';
import { calendarFor, launchDay } from './fixtures.js';

const browser = useBrowser();
const emulator = useEmulator();

const CONFIG = `timezone: Europe/Berlin\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n  short: ${DEMO_ACCOUNTS.short}\nvars:\n  product: Roast No. 5\nslots:\n  photo: ["Thu 15:30"]\nrules:\n  daily:\n    maxPerDay: 1\n`;
const LAUNCH = '---\n# The launch: keep this comment\nscheduledAt: "2027-02-03 09:00"   # launch day\ntargets:\n  - photo\nmedia: [media/cover.png]\n---\nLaunch day of {{ product }}\n';
const LATER = '---\r\nscheduledAt: 2027-02-10 12:00\r\ntargets: [photo]\r\nmedia: [media/cover.png]\r\n---\r\nLater on\r\n';
const WEEKLY = '---\nscheduledAt: 2027-02-01 10:00\nrepeat: { every: week, count: 3 }\ntargets: [photo]\nmedia: [media/cover.png]\n---\nWeekly roast\n';

/** `later` once the editor saved it: the text, a second account, and an option of the first. */
const LATER_EDITED = LATER.replace('targets: [photo]', 'targets: [{ account: photo, options: { link: https://example.com/roast } }, short]').replace('Later on\r\n', 'Later on, with {{ product }} and more\r\n');

interface PlannedChange {
  action: string;
  key: string;
  reasons: string[];
  desired?: { content: string; scheduledAt: string | null; targets: unknown[] };
}

describe.skipIf(BROWSER_MISSING)('editing in watch --calendar', () => {
  let dir: string;
  let watch: WatchProcess;
  let url: string;
  const env = () => ({ POSTSYNC_API_KEY: DEMO_API_KEY });
  const file = (name: string) => readFile(join(dir, name), 'utf8');
  const plan = async (): Promise<PlannedChange[]> => {
    const result = await runCli(['--api-url', emulator().baseUrl, 'plan', '--json'], { cwd: dir, env: env() });
    return (JSON.parse(result.stdout) as { changes: PlannedChange[] }).changes;
  };
  const card = (page: Page, day: string, key: string) => page.locator(`.cell[data-day="${day}"] .card[data-key="${key}"]:not([data-ghost])`);
  const status = (page: Page) => page.locator('#edit-status');

  beforeAll(async () => {
    dir = await testdir({
      'postsync.yaml': CONFIG,
      'media/cover.png': await readFile(new URL('../../examples/media/cover.png', import.meta.url)),
      'posts/launch.md': LAUNCH,
      'posts/later.md': LATER,
      'posts/weekly.md': WEEKLY,
    });
    expect((await runCli(['--api-url', emulator().baseUrl, 'apply', '--yes'], { cwd: dir, env: env() })).code).toBe(0);
    watch = startWatchProcess(['-C', dir, '--api-url', emulator().baseUrl, 'watch', '--calendar', '--refresh', '3600'], { cwd: dir, env: env() });
    url = await calendarAddress(watch);
  }, 60_000);
  afterAll(async () => {
    expect((await watch?.stop('SIGINT'))?.code).toBe(0);
  });

  it('drags a card to another day: scheduledAt is rewritten in the file, the page shows it moved, the plan moves it', async () => {
    const { page, errors } = await openPage(browser(), `${url}#2027-02`);
    await card(page, '2027-02-03', 'launch').dragTo(page.locator('.cell[data-day="2027-02-05"]'));
    await expect.poll(() => file('posts/launch.md'), { timeout: 10_000 }).toBe(LAUNCH.replace('"2027-02-03 09:00"', '"2027-02-05 09:00"'));
    await expect.poll(() => card(page, '2027-02-05', 'launch').getAttribute('class'), { timeout: 10_000 }).toContain('o-moved');
    expect(await page.locator('.cell[data-day="2027-02-03"] .card[data-key="launch"][data-ghost]').count()).toBe(1);
    const launch = (await plan()).find((change) => change.key === 'launch')!;
    expect([launch.action, launch.desired?.scheduledAt]).toEqual(['update', '2027-02-05T08:00:00.000Z']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a drop that breaks a house rule shows the post blocked with the rule, and nothing is applied', async () => {
    const { page, errors } = await openPage(browser(), `${url}#2027-02`);
    await emulator().clearLog();
    await card(page, '2027-02-05', 'launch').dragTo(page.locator('.cell[data-day="2027-02-10"]'));
    await expect.poll(() => card(page, '2027-02-10', 'launch').getAttribute('class'), { timeout: 10_000 }).toContain('o-blocked');
    await card(page, '2027-02-10', 'launch').click();
    expect(await page.locator('#details [data-field="change"]').textContent()).toContain('rule `daily`: the 2nd post on photo on 2027-02-10; at most 1 a day');
    // The remote post still publishes on the day it was applied for: a ghost keeps that day from looking empty.
    expect(await page.locator('.cell[data-day="2027-02-03"] .card[data-key="launch"][data-ghost]').count()).toBe(1);
    expect(await page.locator('#details .facts').textContent()).toContain('Publishes at (kept)');
    // The watch wrote the file and planned: no request reached the API.
    expect(await emulator().requestLog()).toEqual([]);
    const launch = (await plan()).find((change) => change.key === 'launch')!;
    expect(launch.action).toBe('blocked');
    // Back to its day, with the keyboard only: focus the card, Shift+← five times, Enter.
    await page.keyboard.press('Escape');
    await card(page, '2027-02-10', 'launch').focus();
    for (let step = 0; step < 5; step++) await page.keyboard.press('Shift+ArrowLeft');
    expect(await status(page).textContent()).toBe('Move launch to Fri 5 Feb 2027, 09:00: Enter saves it to the file, Escape leaves it.');
    await page.keyboard.press('Enter');
    await expect.poll(() => file('posts/launch.md'), { timeout: 10_000 }).toBe(LAUNCH.replace('"2027-02-03 09:00"', '"2027-02-05 09:00"'));
    await expect.poll(() => card(page, '2027-02-05', 'launch').count(), { timeout: 10_000 }).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('edits the text, the accounts and an option in the editor, with the live preview and counter; CRLF and {{ }} kept', async () => {
    const { page, errors } = await openPage(browser(), `${url}#2027-02`);
    await card(page, '2027-02-10', 'later').click();
    await page.locator('#details [data-action="edit"]').click();
    const text = page.locator('#edit-text');
    expect(await text.inputValue()).toBe('Later on');
    await text.fill('Later on, with {{ product }} and more');
    await page.locator('#details input[data-account="' + DEMO_ACCOUNTS.short + '"]').check();
    await page.locator(`#details [data-option-name="${DEMO_ACCOUNTS.photo}"]`).fill('link');
    await page.locator(`#details [data-option-value="${DEMO_ACCOUNTS.photo}"]`).fill('https://example.com/roast');
    // The editor holds the source ({{ }}), the preview the rendered text, counted in the account's unit.
    const photo = page.locator(`#details .preview[data-account="${DEMO_ACCOUNTS.photo}"]`);
    await expect.poll(() => photo.locator('[data-field="caption"]').textContent(), { timeout: 10_000 }).toBe('Later on, with Roast No. 5 and more');
    expect(await photo.locator('.length').textContent()).toMatch(/^35 \/ [\d,]+ /);
    expect(await page.locator(`#details .preview[data-account="${DEMO_ACCOUNTS.short}"]`).count()).toBe(1);
    await screenshot(page, 'calendar-editor');
    // short takes no images: the first save says so, the second saves.
    await page.locator('#details button[type="submit"]').click();
    await expect.poll(() => page.locator('#details .edit-warning').textContent()).toMatch(/^short takes no images \(media\/cover\.png\)\. The plan would block this post\./);
    await page.locator('#details button[type="submit"]').click();
    await expect.poll(() => file('posts/later.md'), { timeout: 10_000 }).toBe(LATER_EDITED);
    await card(page, '2027-02-10', 'later').click();
    await expect.poll(() => page.locator(`#details .preview[data-account="${DEMO_ACCOUNTS.photo}"] [data-field="caption"]`).first().textContent(), { timeout: 10_000 }).toBe('Later on, with Roast No. 5 and more');
    const later = (await plan()).find((change) => change.key === 'later')!;
    expect(later.desired?.content).toBe('Later on, with Roast No. 5 and more');
    expect(later.desired?.targets[0]).toEqual({ socialAccountId: DEMO_ACCOUNTS.photo, options: { link: 'https://example.com/roast' } });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refuses to overwrite a file changed on disk since the editor read it, and shows the file as it is now', async () => {
    const { page, errors } = await openPage(browser(), `${url}#2027-02`);
    await card(page, '2027-02-05', 'launch').click();
    await page.locator('#details [data-action="edit"]').click();
    await page.locator('#edit-text').fill('Typed in the calendar');
    const saved = LAUNCH.replace('Launch day of', 'Launch day (saved in an editor) of').replace('"2027-02-03 09:00"', '"2027-02-05 09:00"');
    await writeFile(join(dir, 'posts/launch.md'), saved);
    await page.locator('#details button[type="submit"]').click();
    await expect.poll(() => page.locator('#details .edit-message').textContent(), { timeout: 10_000 }).toMatch(/^posts\/launch.md changed on disk since this page read it: nothing was written/);
    expect(await page.locator('#edit-text').inputValue()).toBe('Launch day (saved in an editor) of {{ product }}');
    expect(await file('posts/launch.md')).toBe(saved);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('moves one occurrence of a repeat under occurrences:, makes a new draft on a day, duplicates and unschedules', async () => {
    const { page, errors } = await openPage(browser(), `${url}#2027-02`);
    await card(page, '2027-02-08', 'weekly@2027-02-08').dragTo(page.locator('.cell[data-day="2027-02-09"]'));
    await expect.poll(() => file('posts/weekly.md'), { timeout: 10_000 }).toBe(WEEKLY.replace('---\nWeekly', 'occurrences: { 2027-02-08: { scheduledAt: 2027-02-09 10:00 } }\n---\nWeekly'));
    await expect.poll(() => card(page, '2027-02-09', 'weekly@2027-02-08').count(), { timeout: 10_000 }).toBe(1);

    await page.locator('.cell[data-day="2027-02-17"]').dblclick({ position: { x: 5, y: 5 } });
    await expect.poll(() => page.locator('#details form.editor').getAttribute('data-file'), { timeout: 10_000 }).toBe('posts/2027-02/2027-02-17-draft.md');
    expect(await file('posts/2027-02/2027-02-17-draft.md')).toBe('---\n# A draft made in the calendar: choose its accounts, write its text, then schedule it.\nscheduledAt: 2027-02-17 09:00\ndraft: true\ntargets: []\n---\nNew post\n');
    await page.keyboard.press('Escape');

    // The copy opens in the editor, on the first free slot of its account after the original (photo: Thursdays 15:30).
    await card(page, '2027-02-10', 'later').click();
    await page.locator('#details [data-action="duplicate"]').click();
    await expect.poll(() => page.locator('#details form.editor').getAttribute('data-file'), { timeout: 10_000 }).toBe('posts/later-copy.md');
    expect(await file('posts/later-copy.md')).toBe((await file('posts/later.md')).replace('2027-02-10 12:00', '2027-02-11 15:30'));
    await page.keyboard.press('Escape');
    await card(page, '2027-02-10', 'later').click();
    await page.locator('#details [data-action="unschedule"]').click();
    await expect.poll(() => file('posts/later.md'), { timeout: 10_000 }).toBe(LATER_EDITED.replace('scheduledAt: 2027-02-10 12:00\r\n', ''));
    await expect.poll(() => page.locator('#side .card[data-key="later"]').count(), { timeout: 10_000 }).toBe(1);
    const changes = await plan();
    // Its text and accounts changed earlier too: one update that leaves it without a time (a draft).
    const later = changes.find((change) => change.key === 'later')!;
    expect([later.action, later.desired?.scheduledAt ?? null]).toEqual(['update', null]);
    // The copy is `later` as it was, short (which takes no image) included: blocked by that error, as `later` would be.
    const copy = changes.find((change) => change.key === 'later-copy')!;
    expect([copy.action, copy.reasons[0]]).toEqual(['blocked', 'posts/later-copy.md has an error: media/cover.png is image/png; short (shortB) accepts no images (rules.media.images.contentTypes)']);
    expect(changes.find((change) => change.key === 'weekly@2027-02-08')?.desired?.scheduledAt).toBe('2027-02-09T09:00:00.000Z');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('drags a card to another day and hour in the week view: the minutes are kept', async () => {
    const { page, errors } = await openPage(browser(), `${url}#week-2027-02-01`);
    await page.locator('.slot[data-day="2027-02-05"] .card[data-key="launch"]').dragTo(page.locator('.slot[data-day="2027-02-04"][data-hour="14"]'));
    await expect.poll(() => file('posts/launch.md'), { timeout: 10_000 }).toContain('scheduledAt: "2027-02-04 14:00"   # launch day\n');
    await expect.poll(() => page.locator('.slot[data-day="2027-02-04"][data-hour="14"] .card[data-key="launch"]:not([data-ghost])').count(), { timeout: 10_000 }).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('drops a card on a free slot at its time, and makes a new draft on a free slot with a double click', async () => {
    const { page, errors } = await openPage(browser(), `${url}#2027-02`);
    // (The copy of `later` took 11 February's.)
    await card(page, '2027-02-04', 'launch').dragTo(page.locator('.cell[data-day="2027-02-18"] .free-slot[data-time="15:30"]'));
    await expect.poll(() => file('posts/launch.md'), { timeout: 10_000 }).toContain('scheduledAt: "2027-02-18 15:30"   # launch day\n');
    await expect.poll(() => card(page, '2027-02-18', 'launch').count(), { timeout: 10_000 }).toBe(1);
    await page.locator('.cell[data-day="2027-02-25"] .free-slot[data-time="15:30"]').dblclick();
    await expect.poll(() => page.locator('#details form.editor').getAttribute('data-file'), { timeout: 10_000 }).toBe('posts/2027-02/2027-02-25-draft.md');
    expect(await file('posts/2027-02/2027-02-25-draft.md')).toContain('\nscheduledAt: 2027-02-25 15:30\ndraft: true\n');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('edits nothing on a page served without the edit server (the calendar command, the PR artifact)', async () => {
    const server = await CalendarServer.start({ port: 0 });
    try {
      server.update({ model: calendarFor({ posts: [launchDay()], mediaPrefix: SERVED_MEDIA_PREFIX }), thumbnails: new Map() });
      const { page, errors } = await openPage(browser(), `${server.url}#2027-02`);
      await page.locator('.card[data-key="launch"]').click();
      expect(await page.locator('.edit-bar, #details [data-action], [draggable="true"]').count()).toBe(0);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await server.close();
    }
  });
});
