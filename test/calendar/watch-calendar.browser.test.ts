import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { startWatchProcess } from '../watch/watch-process.js';
import { CalendarServer, SERVED_MEDIA_PREFIX } from '../../src/calendar/live-server.js';
import { BROWSER_MISSING, openPage, screenshot, useBrowser } from './browser.js';
import { calendarFor, launchDay } from './fixtures.js';

const browser = useBrowser();
const emulator = useEmulator();
const post = (scheduledAt: string, body: string) => `---\nscheduledAt: ${scheduledAt}\ntargets: [photo]\nmedia: [media/cover.png]\n---\n${body}\n`;

describe.skipIf(BROWSER_MISSING)('watch --calendar', () => {
  it('serves the calendar and shows each save on the open page, without a reload and without an API request', async () => {
    const dir = await testdir({
      'postsync.yaml': `timezone: Europe/Berlin\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n`,
      'media/cover.png': await readFile(new URL('../../examples/media/cover.png', import.meta.url)),
      'posts/launch.md': post('2027-02-03 09:00', 'Launch day'),
      'posts/later.md': post('2027-02-20 12:00', 'Later on'),
    });
    const watch = startWatchProcess(['-C', dir, '--api-url', emulator().baseUrl, 'watch', '--calendar', '--refresh', '3600'], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
    try {
      // The printed address holds the token of the process: the page passes it on to its events and thumbnails.
      const url = /Calendar: (http:\/\/127\.0\.0\.1:\d+\/\?t=[\w-]+) \(updates after every save\)/.exec(await watch.waitFor(/Calendar: http:\/\/127\.0\.0\.1:\d+\//))![1]!;
      const { page, errors } = await openPage(browser(), `${url}#2027-02`);
      expect(await page.locator('.cell[data-day="2027-02-03"] .card[data-key="launch"] .card-text').textContent()).toBe('Launch day');
      expect(await page.locator('.live').textContent()).toBe('live');
      await page.locator('.card[data-key="launch"]').click();
      const thumbnail = page.locator('#details .thumb img');
      await expect.poll(() => thumbnail.evaluate((element) => {
        const image = element as unknown as { complete: boolean; naturalWidth: number };
        return image.complete && image.naturalWidth > 0;
      }), { timeout: 10_000 }).toBe(true);
      expect(await thumbnail.getAttribute('src')).toContain('?t=');
      await page.keyboard.press('Escape');
      // A mark only this very page holds: a reload would drop it.
      await page.evaluate(() => ((globalThis as unknown as { unreloaded: boolean }).unreloaded = true));
      await emulator().clearLog();

      const mark = watch.mark();
      await writeFile(join(dir, 'posts/launch.md'), post('2027-02-10 16:30', 'Launch day, a week later'));
      const moved = page.locator('.cell[data-day="2027-02-10"] .card[data-key="launch"] .card-text');
      await expect.poll(() => moved.count(), { timeout: 10_000 }).toBe(1);
      expect(await moved.textContent()).toBe('Launch day, a week later');
      expect(await page.locator('.cell[data-day="2027-02-03"] .card[data-key="launch"]').count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as unknown as { unreloaded?: boolean }).unreloaded)).toBe(true);
      await watch.waitFor('launch', mark);

      // A second save, to a post the page has open in its details.
      await page.locator('.card[data-key="later"]').click();
      await writeFile(join(dir, 'posts/later.md'), post('2027-02-20 12:00', 'Later on, with <b>new</b> words'));
      await expect.poll(() => page.locator('#details [data-field="caption"]').textContent(), { timeout: 10_000 }).toBe('Later on, with <b>new</b> words');
      expect(await page.evaluate(() => (globalThis as unknown as { unreloaded?: boolean }).unreloaded)).toBe(true);
      await screenshot(page, 'watch-after-save');
      expect(await emulator().requestLog()).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      const result = await watch.stop('SIGINT');
      expect(result.code).toBe(0);
    }
  });

  it('shows a page opened before the first calendar is made as soon as it is made', async () => {
    const server = await CalendarServer.start({ port: 0 });
    try {
      const opening = openPage(browser(), `${server.url}#2027-02`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      server.update({ model: calendarFor({ posts: [launchDay()], mediaPrefix: SERVED_MEDIA_PREFIX }), thumbnails: new Map() });
      const { page, errors } = await opening;
      expect(await page.locator('.cell[data-day="2027-02-03"] .card[data-key="launch"] .card-text').textContent()).toBe('Launch day');
      expect(errors).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('draws the whole latest calendar when its page was made from an older one', async () => {
    const server = await CalendarServer.start({ port: 0 });
    const calendar = (text: string) => ({ model: calendarFor({ posts: [launchDay(text)], mediaPrefix: SERVED_MEDIA_PREFIX }), thumbnails: new Map() });
    try {
      server.update(calendar('Launch day'));
      const context = browser();
      // The page's event stream is held back until a newer calendar is made: the page, made from the first, gets the whole second one.
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      await context.route('**/events?*', async (route) => {
        await released;
        await route.continue();
      });
      try {
        const { page, errors } = await openPage(context, `${server.url}#2027-02`);
        server.update(calendar('Launch day, made while the page was opening'));
        release();
        await expect.poll(() => page.locator('.card[data-key="launch"] .card-text').textContent(), { timeout: 10_000 }).toBe('Launch day, made while the page was opening');
        expect(errors).toEqual([]);
      } finally {
        await context.unroute('**/events?*');
      }
    } finally {
      await server.close();
    }
  });
});
