import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { dayTitle } from '../../src/zoned-time/index.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { startCalendarWatch, type WatchProcess } from '../watch/watch-process.js';
import { renderCalendarPage } from '../../src/calendar/page.js';
import { axeViolations } from './axe.js';
import { BROWSER_MISSING, openPage, screenshot, useBrowser } from './browser.js';
import { desired, PHOTO, shape } from '../helpers/fixtures.js';
import { calendarFor, launchDay } from './fixtures.js';

const browser = useBrowser();
const emulator = useEmulator();

const CONFIG = `timezone: Europe/Berlin\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\nslots:\n  photo: ["Thu 15:30"]\n`;
const LAUNCH = '---\nscheduledAt: "2027-02-03 09:00"   # launch day\ntargets: [photo]\nmedia: [media/cover.png]\n---\nLaunch day\n';
const EVENING = '---\nscheduledAt: 2027-01-22T19:00:00+01:00   # 19:00 in Berlin, UTC+1 in winter\ntargets: [photo]\nmedia: [media/cover.png]\n---\nEvening tasting\n';
const IDEA = '---\ndraft: true\ntargets: [photo]\nmedia: [media/cover.png]\n---\nAn idea for later\n';
const PENCIL = '---\nscheduledAt: 2027-02-09 18:45\ndraft: true\ntargets: [photo]\nmedia: [media/cover.png]\n---\nPencilled in\n';

/**
 * What the calendar page of `watch --calendar` offers beyond a mouse on a wide screen: the
 * keyboard (a skip link, focus kept on the card moved or opened, drafts moved from the tray),
 * undo, a phone's touch screen, the time a drop takes shown before it, and axe-core's audit. One
 * watch and one browser for the file; each case its own page.
 */
describe.skipIf(BROWSER_MISSING)('the calendar page for keyboards, phones and screen readers', () => {
  let dir: string;
  let watch: WatchProcess;
  let url: string;
  const file = (name: string) => readFile(join(dir, name), 'utf8');
  const card = (page: Page, day: string, key: string) => page.locator(`.cell[data-day="${day}"] .card[data-key="${key}"]:not([data-ghost])`);
  const status = (page: Page) => page.locator('#edit-status');
  /** The focused element: its id, else the key and day of its card, else its tag; and its text. */
  const focused = (page: Page) => page.evaluate(() => {
    const element = (globalThis as unknown as PageGlobals).document.activeElement;
    return element?.id || `${element?.dataset.key ?? element?.tagName} ${element?.dataset.day ?? ''}`.trim();
  });

  beforeAll(async () => {
    dir = await testdir({
      'postsync.yaml': CONFIG,
      'media/cover.png': await readFile(new URL('../../examples/media/cover.png', import.meta.url)),
      'posts/launch.md': LAUNCH,
      'posts/evening.md': EVENING,
      'posts/idea.md': IDEA,
      'posts/pencil.md': PENCIL,
    });
    ({ watch, url } = await startCalendarWatch(dir, { apiUrl: emulator().baseUrl, env: { POSTSYNC_API_KEY: DEMO_API_KEY } }));
  }, 60_000);
  afterAll(async () => {
    expect((await watch?.stop('SIGINT'))?.code).toBe(0);
  });

  it('keyboard: a skip link, focus back on the card after a keyboard move and after the details close, undo, a draft moved from the tray', async () => {
    const { page, errors } = await openPage(browser(), `${url}#2027-02`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.textContent)).toBe('Skip to the calendar');
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('view');
    expect(page.url()).toMatch(/#2027-02$/);

    // A keyboard move: the card keeps focus where it lands, once the watch planned it.
    await card(page, '2027-02-03', 'launch').focus();
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Enter');
    await expect.poll(() => file('posts/launch.md'), { timeout: 10_000 }).toBe(LAUNCH.replace('2027-02-03', '2027-02-04'));
    await expect.poll(() => card(page, '2027-02-04', 'launch').count(), { timeout: 10_000 }).toBe(1);
    expect(await focused(page)).toBe('launch 2027-02-04');

    // Opened with Enter, closed with Escape: back on its card.
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('details');
    await page.keyboard.press('Escape');
    expect(await focused(page)).toBe('launch 2027-02-04');

    // Undo, as the edit bar offers it after the move: the file as it was, the card back on its day and focused.
    expect(await page.locator('[data-action="undo"]').textContent()).toBe('Undo: launch moved to 2027-02-04 09:00');
    await page.keyboard.press('Control+z');
    await expect.poll(() => file('posts/launch.md'), { timeout: 10_000 }).toBe(LAUNCH);
    await expect.poll(() => card(page, '2027-02-03', 'launch').count(), { timeout: 10_000 }).toBe(1);
    expect(await status(page).textContent()).toBe('Undone: launch moved to 2027-02-04 09:00. posts/launch.md is as it was.');
    expect(await focused(page)).toBe('launch 2027-02-03');
    expect(await page.locator('[data-action="undo"]').isHidden()).toBe(true);

    // A draft of the tray: its first step puts it on today, each next one a week on.
    await page.locator('#side .card[data-key="idea"]').focus();
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    const moving = /^Move idea to (.+), 09:00: Enter saves it to the file, Escape leaves it\.$/.exec((await status(page).textContent()) ?? '');
    expect(moving).not.toBeNull();
    await page.keyboard.press('Enter');
    await expect.poll(() => file('posts/idea.md'), { timeout: 10_000 }).toMatch(/^---\ntargets: \[photo\]\nmedia: \[media\/cover.png\]\nscheduledAt: \d{4}-\d{2}-\d{2} 09:00\n---\nAn idea for later\n$/);
    const day = /scheduledAt: (\S+)/.exec(await file('posts/idea.md'))![1]!;
    expect(dayTitle(day)).toBe(moving![1]);
    // Back to the tray by Undo: the draft as it was.
    await page.locator('[data-action="undo"]').click();
    await expect.poll(() => file('posts/idea.md'), { timeout: 10_000 }).toBe(IDEA);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('phone: at 390 px every control is 44 px or more, and a post moves in the agenda with a touch on "Move to", which a long press on a card opens', async () => {
    const { page, errors } = await openPage(browser(), `${url}#2027-02`, { width: 390, height: 844 });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
    const tap = async (target: Locator) => {
      await target.scrollIntoViewIfNeeded();
      const box = (await target.boundingBox())!;
      const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    };
    expect(await smallTargets(page)).toEqual([]);
    await tap(page.locator('.agenda-day[data-day="2027-02-03"] .card[data-key="launch"]'));
    await expect.poll(() => page.locator('#details [data-action="move-to"]').count(), { timeout: 10_000 }).toBe(1);
    expect(await smallTargets(page)).toEqual([]);
    await page.locator('#details [data-action="move-to"] input[type="date"]').fill('2027-02-12');
    await screenshot(page, 'agenda-move-to-390');
    await tap(page.locator('#details [data-action="move-to"] button'));
    await expect.poll(() => file('posts/launch.md'), { timeout: 10_000 }).toBe(LAUNCH.replace('2027-02-03', '2027-02-12'));
    await expect.poll(() => page.locator('.agenda-day[data-day="2027-02-12"] .card[data-key="launch"]:not([data-ghost])').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.locator('#details').isHidden()).toBe(true);
    await tap(page.locator('[data-action="undo"]'));
    await expect.poll(() => file('posts/launch.md'), { timeout: 10_000 }).toBe(LAUNCH);

    // A long press on a card opens its "Move to", the day's field focused.
    const back = page.locator('.agenda-day[data-day="2027-02-03"] .card[data-key="launch"]:not([data-ghost])');
    await back.waitFor();
    const box = (await back.boundingBox())!;
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await page.waitForTimeout(800);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.closest('[data-action="move-to"]') !== null)).toBe(true);
    expect(await page.locator('#details #details-title').textContent()).toBe('launch');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a drag shows the time a drop will give before the drop, and a time written with an offset keeps its form', async () => {
    const { page, errors } = await openPage(browser(), `${url}#2027-01`);
    const evening = card(page, '2027-01-22', 'evening');
    const box = async (locator: Locator) => (await locator.boundingBox())!;
    await evening.hover();
    await page.mouse.down();
    // Over a day: the post's own time; over a free slot: the slot's.
    const day = await box(page.locator('.cell[data-day="2027-01-23"]'));
    await page.mouse.move(day.x + 20, day.y + 10, { steps: 4 });
    await expect.poll(() => page.locator('.cell[data-day="2027-01-23"]').getAttribute('data-drop-at')).toBe('19:00');
    expect(await page.locator('.cell[data-day="2027-01-23"]').evaluate((cell) => (globalThis as unknown as { getComputedStyle(element: unknown, pseudo: string): { content: string } }).getComputedStyle(cell, '::before').content)).toBe('"→ 19:00"');
    expect(await status(page).textContent()).toBe('Drop evening here: Sat 23 Jan 2027, 19:00.');
    const free = await box(page.locator('.cell[data-day="2027-01-28"] .free-slot[data-time="15:30"]'));
    await page.mouse.move(free.x + free.width / 2, free.y + free.height / 2, { steps: 4 });
    await expect.poll(() => page.locator('.cell[data-day="2027-01-28"]').getAttribute('data-drop-at')).toBe('15:30');
    expect(await status(page).textContent()).toBe('Drop evening here: Thu 28 Jan 2027, 15:30 (the free slot).');
    expect(await page.locator('.cell[data-day="2027-01-23"]').getAttribute('data-drop-at')).toBeNull();
    await screenshot(page, 'drop-time-1440');
    await page.mouse.move(day.x + 20, day.y + 10, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => file('posts/evening.md'), { timeout: 10_000 }).toBe(EVENING.replace('2027-01-22T19:00:00+01:00', '2027-01-23T19:00:00+01:00'));
    await expect.poll(() => card(page, '2027-01-23', 'evening').count(), { timeout: 10_000 }).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a new draft made on a day shows on that day, and a draft dragged from the tray keeps the time it pencils in', async () => {
    const { page, errors } = await openPage(browser(), `${url}#2027-02`);
    await page.locator('.cell[data-day="2027-02-17"]').dblclick({ position: { x: 5, y: 5 } });
    await expect.poll(() => page.locator('#details form.editor').getAttribute('data-file'), { timeout: 10_000 }).toBe('posts/2027-02/2027-02-17-draft.md');
    await page.keyboard.press('Escape');
    const made = card(page, '2027-02-17', '2027-02/2027-02-17-draft');
    await expect.poll(() => made.count(), { timeout: 10_000 }).toBe(1);
    expect(await made.getAttribute('class')).toContain('pencilled');
    expect(await page.locator('#side .card[data-key="2027-02/2027-02-17-draft"]').count()).toBe(1);

    // On its pencilled day, and in the tray: from the tray to another day, at its own time.
    expect(await card(page, '2027-02-09', 'pencil').locator('.card-time').textContent()).toBe('18:45');
    await page.locator('#side .card[data-key="pencil"]').dragTo(page.locator('.cell[data-day="2027-02-16"]'), { targetPosition: { x: 5, y: 5 } });
    await expect.poll(() => file('posts/pencil.md'), { timeout: 10_000 }).toBe(PENCIL.replace('2027-02-09 18:45\ndraft: true', '2027-02-16 18:45'));
    await expect.poll(() => card(page, '2027-02-16', 'pencil').getAttribute('class'), { timeout: 10_000 }).not.toContain('pencilled');
    await screenshot(page, 'pencilled-1440');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('axe-core finds nothing critical or serious on the written page (the calendar command) at 1440 and 390 px, its details open and its week', async () => {
    // The problems box and the tray too: a draft, and a file that yields no post.
    const model = calendarFor({
      posts: [launchDay(), desired('idea', shape({ content: 'An idea' }))],
      diagnostics: [{ severity: 'error', code: 'yaml-syntax', message: 'broken', file: 'posts/broken.md', line: 3 }],
      slots: { [PHOTO]: [{ weekday: 4, minute: 930 }] },
    });
    const out = await testdir({ 'calendar.html': String(renderCalendarPage(model)) });
    for (const width of [1440, 390]) {
      const { page, errors } = await openPage(browser(), `${pathToFileURL(join(out, 'calendar.html')).href}#2027-02`, { width, height: 900 });
      expect(await axeViolations(page), `${width} px`).toEqual([]);
      await page.locator('.card[data-key="launch"]').first().click();
      expect(await axeViolations(page), `${width} px, the details open`).toEqual([]);
      await page.keyboard.press('Escape');
      await page.keyboard.press('w');
      await page.locator('#view .week, #view .agenda').waitFor();
      expect(await axeViolations(page), `${width} px, the week`).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it('axe-core finds nothing critical or serious on the live page, the editor open, at 1440 and 390 px', async () => {
    for (const width of [1440, 390]) {
      const { page, errors } = await openPage(browser(), `${url}#2027-02`, { width, height: 900 });
      expect(await axeViolations(page), `${width} px`).toEqual([]);
      await page.locator('.card[data-key="launch"]:not([data-ghost])').first().click();
      await page.locator('#details [data-action="edit"]').click();
      await page.locator('#details form.editor').waitFor();
      expect(await axeViolations(page), `${width} px, the editor open`).toEqual([]);
      await screenshot(page, `editor-${width}`);
      await page.keyboard.press('Escape');
      expect(errors).toEqual([]);
      await page.close();
    }
  });
});

/** The controls a finger cannot hit well: under 44 × 44 px (an input inside a label counts as the label). */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...(globalThis as unknown as PageGlobals).document.querySelectorAll('button, input, select, textarea, a[href], [role="button"]')]
      .map((element) => element.closest('label') ?? element)
      .filter((element, index, all) => all.indexOf(element) === index)
      .flatMap((element) => {
        const box = element.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) return [];
        if (element.closest('.skip-link') !== null && box.bottom < 0) return [];
        return box.width < 44 || box.height < 44 ? [`${element.tagName.toLowerCase()}.${element.className} "${(element.textContent ?? '').trim().slice(0, 20)}" ${Math.round(box.width)}×${Math.round(box.height)}`] : [];
      }),
  );
}

/** What the page functions above use of the page's DOM. */
interface PageNode {
  id: string;
  tagName: string;
  className: string;
  textContent: string | null;
  dataset: Record<string, string | undefined>;
  closest(selector: string): PageNode | null;
  getBoundingClientRect(): { width: number; height: number; bottom: number };
}

interface PageGlobals {
  document: { activeElement: PageNode | null; querySelectorAll(selector: string): Iterable<PageNode> };
}
