import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { CHROMIUM_PATH as CHROMIUM, launchChromium } from '../../scripts/chromium.mjs';

/** Debian's Chromium (`apt-get install chromium`, as .ci/run does), or POSTSYNC_CHROMIUM. */
export { CHROMIUM };

/** Without Chromium, the browser tests are skipped on a workstation; under CI they must run (and fail loudly). */
export const BROWSER_MISSING = !existsSync(CHROMIUM) && !isCI();
if (BROWSER_MISSING) console.warn(`Skipping the calendar's browser tests: no Chromium at ${CHROMIUM}. Install it (apt-get install chromium) or set POSTSYNC_CHROMIUM.`);

function isCI(): boolean {
  const ci = process.env.CI;
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

/** Where screenshots go: git-ignored, kept after the run for a person to look at. */
export const SCREENSHOTS = new URL('../../.test-artifacts/calendar/', import.meta.url).pathname;

/** Starts Chromium (scripts/chromium.mjs) before the tests of the file and closes it after; returns a getter. */
export function useBrowser(): () => BrowserContext {
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  beforeAll(async () => {
    if (BROWSER_MISSING) return;
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}, and CI is set: the browser tests must run (apt-get install chromium).`);
    browser = await launchChromium();
    // Playwright's 30 s for a step (a page's load, a click) is too short with both cores busy:
    // CI once timed out loading a local file. No test asserts time, so a step may take longer.
    browser.context.setDefaultTimeout(90_000);
    browser.context.setDefaultNavigationTimeout(90_000);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (browser === undefined) throw new Error('the browser is not started');
    return browser.context;
  };
}

/** Opens a page (at a viewport size, 1440 × 900 unless told) and collects its script errors, which every test expects to be none. */
export async function openPage(context: BrowserContext, url: string, viewport?: { width: number; height: number }): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  if (viewport !== undefined) await page.setViewportSize(viewport);
  await page.goto(url);
  await page.waitForSelector('#view .month, #view .week, #view .agenda');
  return { page, errors };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
