import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { BROWSER_MISSING, screenshot, useBrowser } from './browser.js';
import { openAt, pageProject, postFile, projectCli, VIDEO, writtenCalendar, type PageElement, type PageGlobals } from './page-project.js';

const browser = useBrowser();
const emulator = useEmulator();

/**
 * Every badge, tag, time, handle and chip the page shows, whose content is wider than its own box,
 * sticks out of the card (or cell, chip, preview head) holding it, out of the window, or over a
 * neighbour in its row. Empty when nothing is clipped or overlaps.
 */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as PageGlobals;
    const problems: string[] = [];
    const name = (element: PageElement) => `${element.className} "${element.textContent?.slice(0, 30)}" in ${element.closest('[data-key]')?.getAttribute('data-key') ?? element.closest('[data-day]')?.getAttribute('data-day') ?? ''}`;
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width) problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    const selector = '.card .tag, .card .badge, .card-time, .card-dots, .card-thumb, .chip, .chip small, .preview-head b, .preview-head .handle, .preview-head .badge, .day-num, .free-slot, .thumb, .agenda-day h3';
    for (const element of Array.from(document.querySelectorAll(selector))) {
      if (element.getClientRects().length === 0) continue;
      const rect = element.getBoundingClientRect();
      if (element.clientWidth > 0 && element.scrollWidth > element.clientWidth + 1) problems.push(`${name(element)}: content ${element.scrollWidth} px in a box of ${element.clientWidth} px`);
      if (rect.right > width + 0.5) problems.push(`${name(element)}: out of the window`);
      const holder = element.parentElement?.closest('.card, .cell, .slot, .chip, .preview-head, .agenda-day, .media');
      if (holder !== null && holder !== undefined) {
        const box = holder.getBoundingClientRect();
        if (rect.left < box.left - 0.5 || rect.right > box.right + 0.5) problems.push(`${name(element)}: out of its ${holder.className} (${Math.round(rect.left)}–${Math.round(rect.right)} in ${Math.round(box.left)}–${Math.round(box.right)})`);
      }
    }
    for (const row of Array.from(document.querySelectorAll('.card-head, .preview-head'))) {
      const parts = Array.from(row.children).filter((child) => child.getClientRects().length > 0).map((child) => ({ child, rect: child.getBoundingClientRect() }));
      for (const [index, a] of parts.entries()) {
        for (const b of parts.slice(index + 1)) {
          const overlap = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left) > 0.5 && Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top) > 0.5;
          if (overlap) problems.push(`${name(a.child)} overlaps ${name(b.child)}`);
        }
      }
    }
    return problems;
  });
}

const LONG_HANDLES = 'accounts:\n  roastery-photo-of-the-week: 6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01\n';

/** A week of February 2027 whose posts wear every plan tag and status: four on Wednesday the 3rd. */
async function busyProject(): Promise<string> {
  const at = (day: number, time: string) => `2027-02-${String(day).padStart(2, '0')} ${time}`;
  const dir = await pageProject(
    {
      'moving.md': postFile(at(3, '09:00'), 'Moving day: the new grinder arrives', { targets: '[photo, short]', media: VIDEO }),
      'leaving.md': postFile(at(3, '12:00'), 'Leaving soon: the last bag of the autumn roast'),
      'edited.md': postFile(at(3, '15:30'), 'Tasting notes of the week', { targets: '[photo, short]', media: VIDEO }),
      'steady.md': postFile(at(3, '18:00'), 'Steady: opening hours for the holidays', { targets: '[roastery-photo-of-the-week]' }),
      'friday.md': postFile(at(5, '10:15'), 'Friday pour-over class, six seats left'),
    },
    { extra: LONG_HANDLES.replace('accounts:\n', '') },
  );
  const cli = projectCli(emulator, dir);
  expect((await cli('apply', '--yes')).code).toBe(0);
  await writeFile(join(dir, 'posts/moving.md'), postFile(at(4, '16:30'), 'Moving day: the new grinder arrives', { targets: '[photo, short]', media: VIDEO }));
  await writeFile(join(dir, 'posts/edited.md'), postFile(at(3, '15:30'), 'Tasting notes of the week, with a new origin', { targets: '[photo, short]', media: VIDEO }));
  await rm(join(dir, 'posts/leaving.md'));
  await writeFile(join(dir, 'posts/new-one.md'), postFile(at(3, '20:45'), 'A brand new post for the evening', { targets: '[short]', media: VIDEO }));
  await writeFile(join(dir, 'posts/draft.md'), postFile(null, 'Unscheduled idea: latte art contest'));
  return dir;
}

describe.skipIf(BROWSER_MISSING)('the calendar page at every width', () => {
  it('clips no badge, time or handle, and overlaps none, from a phone to a wide screen, in each view', async () => {
    const url = await writtenCalendar(emulator, await busyProject());
    for (const width of [320, 390, 768, 1024, 1440, 1920]) {
      const { page, errors } = await openAt(browser(), `${url}#2027-02`, width);
      const narrow = width < 700;
      expect(await page.locator(narrow ? '#view .agenda' : '#view .month').count(), `${width} px`).toBe(1);
      expect(await overflowing(page), `${narrow ? 'agenda' : 'month'} at ${width} px`).toEqual([]);
      await screenshot(page, `${narrow ? 'agenda' : 'month'}-${width}`);
      if (!narrow) {
        await page.getByRole('button', { name: 'Week', exact: true }).click();
        await page.goto(`${url}#week-2027-02-01`);
        await page.waitForSelector('#view .week');
        expect(await overflowing(page), `week at ${width} px`).toEqual([]);
        await screenshot(page, `week-${width}`);
      }
      await page.locator('#view .card[data-key="edited"]').first().click();
      await page.waitForSelector('#details .preview');
      expect(await overflowing(page), `details at ${width} px`).toEqual([]);
      await screenshot(page, `details-${width}`);
      expect(errors).toEqual([]);
      await page.close();
    }
  }, 120_000);

  it('lists a narrow screen\'s month day by day, with the plan\'s tags and the old slots', async () => {
    const url = await writtenCalendar(emulator, await busyProject());
    const { page, errors } = await openAt(browser(), `${url}#2027-02`, 390);
    const days = await page.locator('.agenda-day').evaluateAll((sections) => sections.map((section) => `${section.getAttribute('data-day')}: ${[...section.querySelectorAll('.card')].map((card) => card.getAttribute('data-key')).join(' ')}`));
    expect(days).toEqual(['2027-02-03: moving leaving edited steady new-one', '2027-02-04: moving', '2027-02-05: friday']);
    expect(await page.locator('.agenda-day[data-day="2027-02-03"] .card[data-key="moving"]').getAttribute('data-ghost')).toBe('true');
    expect(await page.locator('.agenda-day[data-day="2027-02-04"] .card[data-key="moving"] .tag').textContent()).toBe('Moved');
    expect(await page.locator('.agenda-day[data-day="2027-02-03"] .card[data-key="new-one"] .tag').textContent()).toBe('New');
    expect(await page.locator('.agenda-day[data-day="2027-02-03"] h3').textContent()).toBe('Wed 3 Feb 2027');
    await page.getByRole('button', { name: 'Next month' }).click();
    expect(await page.locator('#view-title').textContent()).toBe('March 2027');
    expect(await page.locator('.agenda .empty').textContent()).toBe('No posts this month.');
    expect(errors).toEqual([]);
  });

  it('lays out Arabic right to left and Japanese left to right, on cards and in previews', async () => {
    const arabic = 'قهوة اليوم: تحميص جديد من إثيوبيا! اقرأ المزيد: https://example.com/ar';
    const japanese = '新しい焙煎のコーヒーが届きました。ぜひお試しください。';
    const dir = await pageProject({ 'ar.md': postFile('2027-02-02 09:00', arabic, { targets: '[photo, short]', media: VIDEO }), 'ja.md': postFile('2027-02-02 10:00', japanese) });
    const url = await writtenCalendar(emulator, dir);
    for (const width of [390, 1440]) {
      const { page, errors } = await openAt(browser(), `${url}#2027-02`, width);
      const direction = (selector: string) => page.locator(selector).first().evaluate((element) => (globalThis as unknown as PageGlobals).getComputedStyle(element as unknown as PageElement).direction);
      expect(await direction('.card[data-key="ar"] .card-text')).toBe('rtl');
      expect(await direction('.card[data-key="ja"] .card-text')).toBe('ltr');
      await screenshot(page, `rtl-${width}`);
      await page.locator('.card[data-key="ar"]').click();
      expect(await page.locator('#details [data-field="caption"]').evaluateAll((captions) => captions.map((caption) => (globalThis as unknown as PageGlobals).getComputedStyle(caption as unknown as PageElement).direction))).toEqual(['rtl', 'rtl']);
      await screenshot(page, `rtl-details-${width}`);
      await page.keyboard.press('Escape');
      await page.locator('.card[data-key="ja"]').click();
      expect(await direction('#details [data-field="caption"]')).toBe('ltr');
      expect(errors).toEqual([]);
      await page.close();
    }
  });
});
