import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { timeText } from '../../src/zoned-time/index.js';
import { useEmulator } from '../helpers/emulator.js';
import { BROWSER_MISSING, screenshot, useBrowser } from './browser.js';
import { openAt, pageProject, postFile, projectCli, VIDEO, writtenCalendar } from './page-project.js';

const browser = useBrowser();
const emulator = useEmulator();

/** Today in a zone, by Intl alone (not by the code under test). */
function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

describe.skipIf(BROWSER_MISSING)('what the calendar page opens on and shows', () => {
  it('opens on today in the project\'s zone, or on the date its address names', async () => {
    const zone = 'Pacific/Kiritimati';
    const before = todayIn(zone);
    const url = await writtenCalendar(emulator, await pageProject({ 'later.md': postFile('2027-06-15 09:00', 'Summer menu') }, { timezone: zone }));
    const { page, errors } = await openAt(browser(), url, 1440);
    const today = await page.locator('.cell.today').getAttribute('data-day');
    expect([before, todayIn(zone)]).toContain(today);
    expect(await page.locator('#view-title').textContent()).toBe(`${MONTHS[Number(today!.slice(5, 7)) - 1]} ${today!.slice(0, 4)}`);
    for (const address of [`${url}#date=2027-06-15`, `${url}?date=2027-06-15`]) {
      const opened = await openAt(browser(), address, 1440);
      expect(await opened.page.locator('#view-title').textContent(), address).toBe('June 2027');
      expect(await opened.page.locator('.cell[data-day="2027-06-15"] .card[data-key="later"]').count()).toBe(1);
      expect(opened.errors).toEqual([]);
    }
    const week = await openAt(browser(), `${url}#date=2027-06-15&view=week`, 1440);
    expect(await week.page.locator('#view-title').textContent()).toBe('14 – 20 June 2027');
    expect(errors).toEqual([]);
  });

  it('filters by account, status, problem and text, and a link to the page shows the same view', async () => {
    const dir = await pageProject({
      'coffee.md': postFile('2027-02-02 09:00', 'Coffee morning at the roastery'),
      'tea.md': postFile('2027-02-03 09:00', 'Tea time, and coffee too', { targets: '[short]', media: VIDEO }),
      'edited.md': postFile('2027-02-04 09:00', 'Coffee tasting notes'),
      'draft.md': postFile(null, 'Coffee draft for later'),
      'broken.md': postFile('2027-02-05 09:00', `Coffee ${'beans '.repeat(500)}`),
    });
    const cli = projectCli(emulator, dir);
    await cli('apply', '--yes');
    await writeFile(join(dir, 'posts/edited.md'), postFile('2027-02-04 09:00', 'Coffee tasting notes, now with a new origin'));
    const url = await writtenCalendar(emulator, dir);
    const { page, errors } = await openAt(browser(), `${url}#2027-02`, 1440);
    const shown = () => page.locator('#view .card, #tray .card').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-key')).sort());
    expect(await shown()).toEqual(['broken', 'coffee', 'draft', 'edited', 'tea']);

    await page.getByRole('searchbox', { name: 'Search the texts' }).fill('COFFEE');
    await expect.poll(shown).toEqual(['broken', 'coffee', 'draft', 'edited', 'tea']);
    await page.getByRole('searchbox', { name: 'Search the texts' }).fill('coffee m');
    await expect.poll(shown).toEqual(['coffee']);
    await page.getByRole('searchbox', { name: 'Search the texts' }).fill('');
    await page.getByRole('combobox', { name: 'Status' }).selectOption('changed');
    expect(await shown()).toEqual(['edited']);
    await page.getByRole('combobox', { name: 'Status' }).selectOption('draft');
    expect(await shown()).toEqual(['draft']);
    await page.getByRole('combobox', { name: 'Status' }).selectOption('scheduled');
    expect(await shown()).toEqual(['broken', 'coffee', 'edited', 'tea']);
    await page.getByRole('checkbox', { name: 'Only posts with problems' }).check();
    expect(await shown()).toEqual(['broken']);
    await page.getByRole('checkbox', { name: 'Only posts with problems' }).uncheck();
    await page.locator('.chip', { hasText: 'photo' }).click();
    expect(await shown()).toEqual(['tea']);
    await page.getByRole('searchbox', { name: 'Search the texts' }).fill('tea time');
    expect(await shown()).toEqual(['tea']);

    // The same address in a new window: the same month, filters and search.
    const address = page.url();
    expect(address).toContain('#2027-02&');
    const again = await openAt(browser(), address, 1440);
    expect(await again.page.locator('#view .card, #tray .card').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-key')))).toEqual(['tea']);
    expect(await again.page.getByRole('searchbox', { name: 'Search the texts' }).inputValue()).toBe('tea time');
    expect(await again.page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('scheduled');
    expect(await again.page.locator('.chip', { hasText: 'photo' }).getAttribute('aria-pressed')).toBe('false');
    await screenshot(again.page, 'filtered');
    expect([...errors, ...again.errors]).toEqual([]);
  });

  it('shows each card\'s first image as a lazy thumbnail, in the month and in the week', async () => {
    const url = await writtenCalendar(emulator, await pageProject({ 'pictured.md': postFile('2027-02-02 09:00', 'With a picture'), 'plain.md': postFile('2027-02-02 10:00', 'Without one', { media: VIDEO, targets: '[short]' }) }));
    const { page, errors } = await openAt(browser(), `${url}#2027-02`, 1440);
    for (const view of ['.cell', '.slot']) {
      if (view === '.slot') await page.getByRole('button', { name: 'Week', exact: true }).click();
      const thumb = page.locator(`${view} .card[data-key="pictured"] img.card-thumb`);
      expect(await thumb.getAttribute('loading')).toBe('lazy');
      expect(await thumb.getAttribute('src')).toMatch(/^media\/[0-9a-f]{20}\.png$/);
      await expect.poll(() => thumb.evaluate((image) => (image as unknown as { complete: boolean; naturalWidth: number }).complete && (image as unknown as { naturalWidth: number }).naturalWidth > 0)).toBe(true);
      expect(await page.locator(`${view} .card[data-key="plain"] img`).count()).toBe(0);
    }
    expect(errors).toEqual([]);
  });

  it('says when it was made on the project\'s clock, as the page\'s times are', async () => {
    const url = await writtenCalendar(emulator, await pageProject({ 'one.md': postFile('2027-02-02 09:00', 'One') }, { timezone: 'Asia/Kolkata' }));
    const { page, errors } = await openAt(browser(), url, 1440);
    const { generatedAt } = JSON.parse((await page.locator('#calendar-data').textContent())!) as { generatedAt: string };
    const meta = await page.locator('#top .meta').textContent();
    expect(meta).toContain(`Made ${timeText(generatedAt, 'Asia/Kolkata')}`);
    expect(meta).not.toContain('UTC');
    expect(errors).toEqual([]);
  });

  it('shows on a card the text its only account posts, not the unused shared body', async () => {
    const own = '---\nscheduledAt: 2027-02-02 09:00\ntargets:\n  - account: short\n    content: "Short and to the point"\n---\nThe long shared body nobody posts\n';
    const url = await writtenCalendar(emulator, await pageProject({ 'own.md': own }));
    const { page, errors } = await openAt(browser(), `${url}#2027-02`, 1440);
    expect(await page.locator('.card[data-key="own"] .card-text').textContent()).toBe('Short and to the point');
    expect(errors).toEqual([]);
  });

  it('names a removed post\'s media on the remote without its id, inside its tile', async () => {
    const dir = await pageProject({ 'gone.md': postFile('2027-02-02 09:00', 'Soon gone') });
    expect((await projectCli(emulator, dir)('apply', '--yes')).code).toBe(0);
    await rm(join(dir, 'posts/gone.md'));
    const { page, errors } = await openAt(browser(), `${await writtenCalendar(emulator, dir)}#2027-02`, 1440);
    await page.locator('#tray .card[data-key="gone"]').click();
    const tile = page.locator('#details .thumb').first();
    expect(await tile.textContent()).toBe('image on the remote');
    expect(await tile.evaluate((element) => element.scrollWidth <= element.clientWidth && element.scrollHeight <= element.clientHeight)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('shows the free slots of `slots:` as open places, and none where a post of the account is', async () => {
    const dir = await pageProject({ 'taken.md': postFile('2027-02-03 09:00', 'In the slot') }, { extra: 'slots:\n  photo: ["Wed 09:00", "Wed 12:00"]\n' });
    const url = await writtenCalendar(emulator, dir);
    const { page, errors } = await openAt(browser(), `${url}#2027-02`, 1440);
    const free = (where: string) => page.locator(`${where} .free-slot`).evaluateAll((slots) => slots.map((slot) => `${slot.getAttribute('data-time')} ${slot.getAttribute('data-account')}`));
    expect(await free('.cell[data-day="2027-02-03"]')).toEqual(['12:00 6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01']);
    expect(await free('.cell[data-day="2027-02-10"]')).toEqual(['09:00 6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01', '12:00 6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01']);
    expect(await free('.cell[data-day="2027-02-11"]')).toEqual([]);
    await page.goto(`${url}#week-2027-02-08`);
    expect(await free('.slot[data-day="2027-02-10"][data-hour="12"]')).toEqual(['12:00 6f1c2d6e-0a55-4c59-9d0f-3b8f5d1a7e01']);
    await screenshot(page, 'free-slots-week');
    expect(errors).toEqual([]);
  });
});
