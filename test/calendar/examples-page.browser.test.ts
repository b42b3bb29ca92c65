import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { uidOf } from '../../src/calendar/ics.js';
import type { PostShape } from '../../src/content/types.js';
import { runCli } from '../helpers/cli.js';
import { testdir } from '../helpers/testdir.js';
import { BROWSER_MISSING, openPage, screenshot, useBrowser } from './browser.js';

const EXAMPLES = new URL('../../examples', import.meta.url).pathname;
const browser = useBrowser();

/** The day and time of an instant in a zone, worked out by Intl alone (not by the code under test). */
function wallClock(instant: string, timeZone: string): { day: string; time: string } {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  return { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

describe.skipIf(BROWSER_MISSING)('the calendar of examples/ in Chromium', () => {
  it('puts every scheduled post in its cell in Europe/Berlin, and the feed has one matching event each', async () => {
    const project = await testdir();
    await cp(EXAMPLES, project, { recursive: true, filter: (source) => !source.includes('/.postsync') });
    const out = join(project, 'calendar');
    const made = await runCli(['-C', project, 'calendar', '--out', out, '--ics', join(out, 'feed.ics')], { cwd: project });
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^Calendar: .*index\.html \(21 scheduled posts, 5 unscheduled posts; times in Europe\/Berlin\)\nPlan: 26 new\.\n1 problem in the files: shown on the page \(`postsync validate` lists them\)\.\nFeed: .*feed\.ics \(21 events\)\n$/);

    // What the posts' times are, from the plan as JSON.
    const plan = JSON.parse((await runCli(['-C', project, 'plan', '--json'], { cwd: project })).stdout) as { changes: { key: string; desired: PostShape }[] };
    const scheduled = plan.changes.filter((change) => change.desired.scheduledAt !== null);
    expect(scheduled).toHaveLength(21);

    const { page, errors } = await openPage(browser(), `${pathToFileURL(join(out, 'index.html')).href}#2027-01`);
    for (const { key, desired } of scheduled) {
      const { day, time } = wallClock(desired.scheduledAt!, 'Europe/Berlin');
      if (!day.startsWith('2027-01')) await page.goto(`${pathToFileURL(join(out, 'index.html')).href}#${day.slice(0, 7)}`);
      const card = page.locator(`.cell[data-day="${day}"] .card[data-key="${key}"]`);
      await expect.poll(() => card.count(), { message: `${key} on ${day}` }).toBe(1);
      expect(await card.locator('.card-time').textContent()).toBe(time);
      if (!day.startsWith('2027-01')) await page.goto(`${pathToFileURL(join(out, 'index.html')).href}#2027-01`);
    }
    // 29 January 16:00 UTC is 17:00 in Berlin.
    expect(await page.locator('.cell[data-day="2027-01-29"] .card-time').first().textContent()).toBe('17:00');
    expect(await page.locator('#tray .card').count()).toBe(5);
    await screenshot(page, 'examples-month');

    await page.locator('.card[data-key="2027-01/launch-teaser"]').click();
    const details = page.locator('#details');
    await expect.poll(() => details.isVisible()).toBe(true);
    expect(await details.locator('[data-field="file"]').textContent()).toBe('posts/2027-01/launch-teaser.md');
    expect(await details.locator('[data-field="change"]').textContent()).toContain('create');
    expect(await details.locator('.preview').count()).toBe(3);
    expect(await details.locator('.preview[data-account="7a2d3e4f-1b66-4d6a-8e1f-4c9a6e2b8f02"] .preview-title').textContent()).toBe('Something new is brewing');
    expect(await details.locator('.thumb.video .dur').first().textContent()).toMatch(/^\d+:\d\d$/);
    await screenshot(page, 'examples-details');
    await page.keyboard.press('Escape');
    expect(await details.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Week', exact: true }).click();
    expect(await page.locator('#view-title').textContent()).toBe('28 December 2026 – 3 January 2027');
    await page.goto(`${pathToFileURL(join(out, 'index.html')).href}#week-2027-01-04`);
    expect(await page.locator('.slot[data-day="2027-01-04"][data-hour="9"] .card[data-key="2027-01/launch-teaser"]').count()).toBe(1);
    await screenshot(page, 'examples-week');
    expect(errors).toEqual([]);

    // The feed: one event per scheduled post, at its instant, with its text.
    const feed = new ICAL.Component(ICAL.parse(await readFile(join(out, 'feed.ics'), 'utf8')));
    const events = feed.getAllSubcomponents('vevent').map((component) => new ICAL.Event(component));
    const byUid = new Map(scheduled.map((change) => [uidOf('local', change.key), change]));
    expect(events).toHaveLength(scheduled.length);
    for (const event of events) {
      const change = byUid.get(event.uid);
      expect(change, event.uid).toBeDefined();
      expect(event.startDate.toJSDate().toISOString()).toBe(change!.desired.scheduledAt);
      expect(event.description.startsWith(change!.desired.content)).toBe(true);
    }
  });
});
