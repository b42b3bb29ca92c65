import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildCalendarModel } from '../../src/calendar/build-model.js';
import { renderCalendarPage } from '../../src/calendar/page.js';
import { testdir } from '../helpers/testdir.js';
import { BROWSER_MISSING, openPage, useBrowser } from './browser.js';
import { desired, PHOTO, shape, SHORT } from '../helpers/fixtures.js';
import { cardsOf } from './fixtures.js';

const browser = useBrowser();

describe.skipIf(BROWSER_MISSING)('a calendar of 10,000 posts in Chromium', () => {
  it('draws only the month on screen and keeps the rest as data', async () => {
    // 10,000 posts over January to March 2031 (about 110 a day), two accounts each.
    const posts = Array.from({ length: 10_000 }, (_, i) =>
      desired(`p/${String(i).padStart(5, '0')}`, shape({
        content: `Post ${i}: fresh beans and a new roast.`,
        scheduledAt: new Date(Date.UTC(2031, 0, 1, 6) + Math.floor((i * 90 * 86_400_000) / 10_000)).toISOString(),
        targets: [{ socialAccountId: PHOTO, options: {} }, { socialAccountId: SHORT, options: {} }],
      })),
    );
    const model = buildCalendarModel({ now: new Date('2030-12-20T12:00:00Z'), timezone: 'Europe/Berlin', aliases: { 'brand-photo': PHOTO, 'brand-short': SHORT }, target: 'Target: test', cards: cardsOf(posts), plan: null, live: null, state: null, capabilities: new Map(), diagnostics: [], mediaPrefix: 'media/' });
    const dir = await testdir();
    await writeFile(join(dir, 'index.html'), String(renderCalendarPage(model)));

    const { page, errors } = await openPage(browser(), `${pathToFileURL(join(dir, 'index.html')).href}#2031-01`);
    expect(await page.locator('#view-title').textContent()).toBe('January 2031');
    // Five weeks of seven days, at most four cards (three and "+ n more") each.
    expect(await page.locator('#view .card').count()).toBeLessThanOrEqual(35 * 4);
    expect(await page.locator('.cell[data-day="2031-01-15"] .more').textContent()).toMatch(/^\+ \d+ more$/);
    const perDay = await page.locator('.cell[data-day="2031-01-15"] .card').count();
    await page.locator('.cell[data-day="2031-01-15"] .more').click();
    expect(await page.locator('#view-title').textContent()).toBe('13 – 19 January 2031');
    expect(await page.locator('.slot[data-day="2031-01-15"] .card').count()).toBeGreaterThan(perDay);
    await page.keyboard.press('m');
    await page.keyboard.press('ArrowRight');
    expect(await page.locator('#view-title').textContent()).toBe('February 2031');
    expect(await page.locator('.cell[data-day="2031-02-10"] .card').count()).toBe(3);
    expect(errors).toEqual([]);
  });
});
