import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/**
 * Debian's Chromium (`apt-get install chromium`, as .ci/run does), driven by playwright-core,
 * which downloads no browser of its own. POSTSYNC_CHROMIUM points elsewhere.
 */
export const CHROMIUM = process.env.POSTSYNC_CHROMIUM ?? '/usr/bin/chromium';

/** Without Chromium, the browser tests are skipped on a workstation; under CI they must run (and fail loudly). */
export const BROWSER_MISSING = !existsSync(CHROMIUM) && !isCI();
if (BROWSER_MISSING) console.warn(`Skipping the calendar's browser tests: no Chromium at ${CHROMIUM}. Install it (apt-get install chromium) or set POSTSYNC_CHROMIUM.`);

function isCI(): boolean {
  const ci = process.env.CI;
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

/** Where screenshots go: git-ignored, kept after the run for a person to look at. */
export const SCREENSHOTS = new URL('../../.test-artifacts/calendar/', import.meta.url).pathname;

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Starts Chromium with a fresh profile before the tests of the file and closes it after; returns a getter. */
export function useBrowser(): () => BrowserContext {
  let context: BrowserContext | undefined;
  let profile: string | undefined;
  beforeAll(async () => {
    if (BROWSER_MISSING) return;
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}, and CI is set: the browser tests must run (apt-get install chromium).`);
    profile = await mkdtemp(join(tmpdir(), 'postsync-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1440, height: 900 } });
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    if (profile !== undefined) await rm(profile, { recursive: true, force: true });
  });
  return () => {
    if (context === undefined) throw new Error('the browser is not started');
    return context;
  };
}

/** Opens a page and collects its script errors, which every test expects to be none. */
export async function openPage(context: BrowserContext, url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);
  await page.waitForSelector('#view .month, #view .week');
  return { page, errors };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
