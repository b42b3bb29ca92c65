import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { BROWSER_MISSING, openPage, screenshot, useBrowser } from './browser.js';

const browser = useBrowser();
const emulator = useEmulator();
const cover = () => readFile(new URL('../../examples/media/cover.png', import.meta.url));

async function project(timezone: string, posts: Record<string, string>): Promise<string> {
  return testdir({
    'postsync.yaml': `timezone: ${timezone}\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n  short: ${DEMO_ACCOUNTS.short}\n`,
    'media/cover.png': await cover(),
    ...Object.fromEntries(Object.entries(posts).map(([path, text]) => [`posts/${path}`, text])),
  });
}

function cli(dir: string, ...args: string[]) {
  return runCli(['-C', dir, '--api-url', emulator().baseUrl, ...args], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
}

async function calendarPage(dir: string, hash: string) {
  const made = await cli(dir, 'calendar', '--out', join(dir, 'out'));
  expect(made.code, made.stderr).toBe(0);
  return openPage(browser(), `${pathToFileURL(join(dir, 'out/index.html')).href}#${hash}`);
}

const post = (scheduledAt: string | null, body: string, targets = '[photo]') => `---\n${scheduledAt === null ? '' : `scheduledAt: ${scheduledAt}\n`}targets: ${targets}\nmedia: [media/cover.png]\n---\n${body}\n`;

describe.skipIf(BROWSER_MISSING)('the calendar page in Chromium', () => {
  it('places posts by their day in a zone whose clocks change that month (Los Angeles, 14 March 2027)', async () => {
    // 20:00 in Los Angeles is the next day in UTC: a page that placed posts by UTC date would be a day late.
    const dir = await project('America/Los_Angeles', {
      'before.md': post('2027-03-13 20:00', 'Before the change (UTC-8)'),
      'after.md': post('2027-03-14 20:00', 'After the change (UTC-7)'),
      'morning.md': post('2027-03-14 03:30', 'Just after clocks went forward'),
    });
    const { page, errors } = await calendarPage(dir, '2027-03');
    const placed = await page.locator('.cell .card').evaluateAll((cards) => cards.map((card) => `${card.getAttribute('data-key')} ${card.getAttribute('data-day')} ${card.querySelector('.card-time')?.textContent}`));
    expect(placed.sort()).toEqual(['after 2027-03-14 20:00', 'before 2027-03-13 20:00', 'morning 2027-03-14 03:30']);
    await page.locator('.card[data-key="after"]').click();
    expect(await page.locator('#details .facts').textContent()).toContain('Sun 14 Mar 2027, 20:00 (UTC-07:00)');
    await page.keyboard.press('Escape');
    await page.goto(page.url().replace(/#.*/, '#week-2027-03-08'));
    expect(await page.locator('.slot[data-day="2027-03-13"][data-hour="20"] .card[data-key="before"]').count()).toBe(1);
    await screenshot(page, 'dst-week');
    expect(errors).toEqual([]);
  });

  it('shows where a caption over the account limit is cut, and what is cut', async () => {
    const long = `${'Beans. '.repeat(320)}END`;
    const dir = await project('Europe/Berlin', { 'long.md': post('2027-02-02 09:00', long) });
    const { page, errors } = await calendarPage(dir, '2027-02');
    const card = page.locator('.cell[data-day="2027-02-02"] .card[data-key="long"]');
    expect(await card.getAttribute('class')).toContain('err');
    await card.click();
    const preview = page.locator('#details .preview').first();
    // photoC allows 2,200 characters; the text has 7 × 320 + 3 = 2,243.
    expect(await preview.locator('[data-field="overflow"]').textContent()).toBe(long.slice(2200));
    expect(await preview.locator('.cut').count()).toBe(1);
    expect(await preview.locator('.length').textContent()).toContain('2,243 / 2,200 characters — 43 over the limit');
    expect(await page.locator('#details .diag').first().textContent()).toContain('too long');
    await preview.getByRole('button', { name: 'show the cut' }).click();
    await screenshot(page, 'caption-cut');
    expect(errors).toEqual([]);
  });

  it('shows a moved post in its old and its new slot, and a removed file\'s post leaving its slot for the drafts', async () => {
    const dir = await project('Europe/Berlin', { 'moving.md': post('2027-02-03 09:00', 'Moving day'), 'leaving.md': post('2027-02-05 12:00', 'Leaving soon') });
    expect((await cli(dir, 'apply', '--yes')).code).toBe(0);
    await writeFile(join(dir, 'posts/moving.md'), post('2027-02-10 16:30', 'Moving day'));
    await rm(join(dir, 'posts/leaving.md'));
    const { page, errors } = await calendarPage(dir, '2027-02');
    const old = page.locator('.cell[data-day="2027-02-03"] .card[data-key="moving"]');
    const moved = page.locator('.cell[data-day="2027-02-10"] .card[data-key="moving"]');
    expect(await old.getAttribute('data-ghost')).toBe('true');
    expect(await old.locator('.card-time').textContent()).toBe('09:00');
    expect(await moved.getAttribute('data-ghost')).toBeNull();
    expect(await moved.locator('.tag').textContent()).toBe('Moved');
    expect(await page.locator('.cell[data-day="2027-02-05"] .card[data-key="leaving"]').getAttribute('data-ghost')).toBe('true');
    expect(await page.locator('#tray .card[data-key="leaving"] .tag').textContent()).toBe('Unscheduled');
    await moved.click();
    expect(await page.locator('#details .facts').textContent()).toContain('Old timeWed 3 Feb 2027, 09:00 (UTC+01:00)');
    expect(await page.locator('#details [data-field="change"]').textContent()).toContain('changed in posts/moving.md: scheduledAt');
    await page.keyboard.press('Escape');
    await screenshot(page, 'moved');
    expect(errors).toEqual([]);
  });

  it('shows captions and keys holding HTML as text, and runs none of it', async () => {
    const hostile = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2"> & </textarea>';
    const dir = await project('Europe/Berlin', { 'x<b>.md': `---\nid: "k</script><script>window.pwned=3</script>"\nscheduledAt: 2027-02-02 09:00\ntargets:\n  - photo\n  - account: short\n    content: "${hostile.replace(/"/g, '\\"')}"\nmedia: [media/cover.png]\n---\n${hostile}\n` });
    const { page, errors } = await calendarPage(dir, '2027-02');
    const card = page.locator('.cell[data-day="2027-02-02"] .card');
    expect(await card.getAttribute('data-key')).toBe('k</script><script>window.pwned=3</script>');
    expect(await card.locator('.card-text').textContent()).toBe(hostile);
    await card.click();
    expect(await page.locator('#details-title').textContent()).toBe('k</script><script>window.pwned=3</script>');
    expect(await page.locator('#details [data-field="caption"]').allTextContents()).toEqual([hostile, hostile]);
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator('#details img[src="x"]').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
