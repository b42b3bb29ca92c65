import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_API_KEY } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { testdir } from '../helpers/testdir.js';
import { BROWSER_MISSING, useBrowser } from './browser.js';

const browser = useBrowser();
const emulator = useEmulator();

/** A written calendar page of one post with a picture, on 2 February 2027. */
async function writtenPage(body = 'The launch'): Promise<string> {
  const dir = await testdir({
    'postsync.yaml': `timezone: Europe/Berlin\naccounts:\n  photo: ${DEMO_ACCOUNTS.photo}\n  short: ${DEMO_ACCOUNTS.short}\n`,
    'media/cover.png': await readFile(new URL('../../examples/media/cover.png', import.meta.url)),
    'posts/launch.md': `---\nscheduledAt: 2027-02-02 09:00\ntargets: [photo]\nmedia: [media/cover.png]\n---\n${body}\n`,
  });
  const made = await runCli(['-C', dir, '--api-url', emulator().baseUrl, 'calendar', '--out', join(dir, 'out')], { cwd: dir, env: { POSTSYNC_API_KEY: DEMO_API_KEY } });
  expect(made.code, made.stderr).toBe(0);
  return pathToFileURL(join(dir, 'out/index.html')).href;
}

/**
 * Opens the page at `hash` as a link someone sent would: whatever the address holds, the page
 * draws a calendar (no script error, no blank page) and runs nothing from it.
 */
async function openAt(url: string, hash: string) {
  const page = await browser().newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // A page whose script never ends never finishes loading either: that is a page not drawn.
  const loaded = await page.goto(`${url}#${hash}`, { timeout: 20_000 }).then(() => true, () => false);
  const drawn = loaded && (await page.waitForSelector('#view .month, #view .week, #view .agenda', { timeout: 15_000 }).then(() => true, () => false));
  const pwned = loaded ? await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned) : undefined;
  const injected = loaded ? await page.locator('img[src="x"], #view script').count() : 0;
  await page.close({ runBeforeUnload: false });
  return { drawn, errors, pwned, injected };
}

describe.skipIf(BROWSER_MISSING)('attack: the calendar page address from a hostile link', () => {
  it('draws a calendar and runs nothing, whatever the address holds', async () => {
    const url = await writtenPage();
    const hostile = [
      'q=<img src=x onerror="window.pwned=1">',
      `2027-02&q=${encodeURIComponent('<img src=x onerror="window.pwned=2">')}`,
      `2027-02&account=${encodeURIComponent('<img src=x onerror="window.pwned=3">')}&status=<script>window.pwned=4</script>&view=<b>`,
      'date=garbage&view=week',
      'date=0000-01-01',
      '0000-01',
      'week-0000-01-03',
      'date=9999-12-31&view=week',
      '9999-12',
      'week-0099-12-28',
      // A percent sign that escapes nothing, in the month part of the hash and in a value.
      '%',
      '2027-02%',
      '%E0%A4%A',
      '2027-02&q=%',
    ];
    const results: Record<string, Awaited<ReturnType<typeof openAt>>> = {};
    for (const hash of hostile) results[hash] = await openAt(url, hash);
    const fine = { drawn: true, errors: [], pwned: undefined, injected: 0 };
    expect(results).toEqual(Object.fromEntries(hostile.map((hash) => [hash, fine])));
  });

  it('keeps a text with bidi overrides inside its card in the agenda of a narrow screen (held)', async () => {
    const url = await writtenPage('\u202eevil.exe.png \u2067 isolate opened');
    const page = await browser().newPage();
    await page.setViewportSize({ width: 400, height: 800 });
    await page.goto(`${url}#2027-02`);
    const text = page.locator('.agenda .card-text').first();
    expect(await text.getAttribute('dir')).toBe('auto');
    // An element with `dir` is isolated: an override inside it ends with it, and never reorders the day's heading or the next card.
    expect(await text.evaluate((element) => (globalThis as unknown as { getComputedStyle(element: unknown): { unicodeBidi: string } }).getComputedStyle(element).unicodeBidi)).toBe('isolate');
    expect(await page.locator('.agenda h3').first().textContent()).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    await page.close();
  });
});
